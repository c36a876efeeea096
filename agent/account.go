package agent

import (
	"math"
	"time"
)

// burst is how long the budget's credit accrues at most: a collection
// costing more than budget × burst is never allowed.
const burst = time.Minute

// account is the agent's budget: credit accrues at rate (the budget, in
// seconds of cost per second of run time) up to capacity; a collection
// reserves its predicted cost before it runs and settles its measured cost
// after. Times are passed in, so the arithmetic is a pure function of them.
type account struct {
	rate     float64
	capacity float64
	credit   float64   // seconds of cost the budget allows now
	at       time.Time // when credit was brought up to date
	spent    float64   // seconds of cost accounted since the start
	refused  int
}

func newAccount(rate float64, start time.Time) *account {
	return &account{rate: rate, capacity: rate * burst.Seconds(), at: start}
}

// refill brings the credit up to now.
func (a *account) refill(now time.Time) {
	if d := now.Sub(a.at); d > 0 {
		a.credit = math.Min(a.capacity, a.credit+a.rate*d.Seconds())
		a.at = now
	}
}

// reserve pays cost out of the credit at now. When the credit falls short
// it refuses, and says how long until it will not (never: false).
func (a *account) reserve(now time.Time, cost float64) (ok bool, wait time.Duration, ever bool) {
	a.refill(now)
	if cost <= a.credit {
		a.credit -= cost
		return true, 0, true
	}
	a.refused++
	if cost > a.capacity || a.rate <= 0 {
		return false, 0, false
	}
	return false, time.Duration((cost - a.credit) / a.rate * float64(time.Second)), true
}

// settle replaces a reservation by the measured cost: the difference is
// given back, or taken (the credit may go below zero, and then later
// collections wait until it is paid).
func (a *account) settle(reserved, actual float64) {
	a.credit += reserved - actual
	a.spent += actual
}
