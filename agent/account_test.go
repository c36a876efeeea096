package agent

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestAccountReserve(t *testing.T) {
	t0 := time.Unix(0, 0)
	a := newAccount(0.01, t0) // 1%: 10 ms of credit per second, at most 600 ms
	tests := []struct {
		at         time.Duration
		cost       float64
		ok, ever   bool
		wait       time.Duration
		creditLeft float64
	}{
		{0, 0.001, false, true, 100 * time.Millisecond, 0},
		{time.Second, 0.004, true, true, 0, 0.006},
		{time.Second, 0.010, false, true, 400 * time.Millisecond, 0.006},
		{2 * time.Second, 0.010, true, true, 0, 0.006},
		{time.Hour, 0.7, false, false, 0, 0.6}, // more than a minute of budget: never
		{time.Hour, 0.6, true, true, 0, 0},
	}
	for i, tt := range tests {
		ok, wait, ever := a.reserve(t0.Add(tt.at), tt.cost)
		if ok != tt.ok || ever != tt.ever || (wait-tt.wait).Abs() > time.Microsecond || diff(a.credit, tt.creditLeft) > 1e-9 {
			t.Errorf("%d: reserve(%v, %g) = %v, %v, %v with credit %g; want %v, %v, %v with %g",
				i, tt.at, tt.cost, ok, wait, ever, a.credit, tt.ok, tt.wait, tt.ever, tt.creditLeft)
		}
	}
	if a.refused != 3 {
		t.Errorf("refused = %d, want 3", a.refused)
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestAccountNeverOverspends: over random collections that cost at most
// what they reserved, the cost accounted never exceeds rate × elapsed;
// when one costs more, later collections wait until the excess is paid, so
// the cost stays within rate × elapsed plus the excess not yet paid.
func TestAccountNeverOverspends(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		rate := []float64{0.1, 0.01, 0.001}[trial%3]
		t0 := time.Unix(100, 0)
		a := newAccount(rate, t0)
		now, excess := t0, 0.0
		for range 300 {
			now = now.Add(time.Duration(r.Float64() * float64(2*time.Second)))
			cost := r.Float64() * rate * 5
			ok, _, _ := a.reserve(now, cost)
			if !ok {
				continue
			}
			actual := cost * r.Float64()
			if r.IntN(20) == 0 {
				actual = cost * (1 + r.Float64()) // a collection costing more than predicted
				excess += actual - cost
			}
			a.settle(cost, actual)
			if limit := rate*now.Sub(t0).Seconds() + excess; a.spent > limit+1e-9 {
				t.Fatalf("trial %d: spent %g after %v, more than rate × elapsed + excess = %g", trial, a.spent, now.Sub(t0), limit)
			}
			if a.credit >= 0 {
				excess = 0 // paid back: the plain bound holds again
			}
		}
	}
}
