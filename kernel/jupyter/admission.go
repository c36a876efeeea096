package jupyter

import (
	"container/list"
	"errors"
	"fmt"
	"sync"
	"syscall"
)

// admission decides, for all the kernel's channels at once, which
// connections stay and how much unsigned data they may hold. A connection is
// vouched for once it has sent a correctly signed message; until then it can
// be anyone, so it is the first to go:
//   - each channel holds at most seats connections; a new one beyond that
//     evicts the channel's oldest connection not vouched for, and is refused
//     when every seat is vouched for (a signed client is never evicted for an
//     unsigned one);
//   - the messages being read from connections not vouched for hold at most
//     bytes octets in all; a frame that would pass it evicts the connections
//     holding the oldest such messages, and is refused when it cannot fit.
//
// Evicted connections are reset, which frees their descriptors and buffers
// at once. Safe for concurrent use.
type admission struct {
	mu      sync.Mutex
	seats   int   // connections per channel
	bytes   int64 // octets of unsigned messages being read, all channels
	used    int64
	waiting map[string]*list.List // per channel: tickets not vouched for, oldest first
	count   map[string]int
	holders *list.List // tickets holding unsigned octets, oldest first
}

// ticket is one admitted connection's place.
type ticket struct {
	channel string
	reset   func() // closes the connection at once
	vouched bool
	gone    bool
	held    int64
	wait    *list.Element // in waiting[channel] until vouched for
	hold    *list.Element // in holders while held > 0
}

var errNoSeat = errors.New("every seat of the channel is taken by a client that signed")

func newAdmission(seats int, bytes int64) *admission {
	return &admission{seats: seats, bytes: bytes, waiting: map[string]*list.List{}, count: map[string]int{}, holders: list.New()}
}

// seatsFor returns the connections each of the five channels may hold,
// from the descriptors the process may open (seatsOf).
func seatsFor() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return seatsOf(1024)
	}
	return seatsOf(rl.Cur)
}

// seatsOf is a tenth of nofile descriptors (so the five channels take half),
// between 16 and 1000.
func seatsOf(nofile uint64) int {
	return int(min(max(nofile/10, 16), 1000))
}

// admit seats a new connection on channel; reset closes it when evicted.
func (a *admission) admit(channel string, reset func()) (*ticket, error) {
	var evicted []*ticket
	defer func() { resetAll(evicted) }()
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.waiting[channel]
	if w == nil {
		w = list.New()
		a.waiting[channel] = w
	}
	if a.count[channel] >= a.seats {
		if w.Len() == 0 {
			return nil, errNoSeat
		}
		evicted = append(evicted, a.drop(w.Front().Value.(*ticket)))
	}
	t := &ticket{channel: channel, reset: reset}
	t.wait = w.PushBack(t)
	a.count[channel]++
	return t, nil
}

// vouch records that t sent a correctly signed message: it is never evicted
// from now on, and what it sends is not counted.
func (a *admission) vouch(t *ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.gone || t.vouched {
		return
	}
	a.release(t)
	a.waiting[t.channel].Remove(t.wait)
	t.vouched, t.wait = true, nil
}

// reserve counts n more octets of the message t is sending, unless t is
// vouched for; older holders are evicted to make room.
func (a *admission) reserve(t *ticket, n int64) error {
	var evicted []*ticket
	defer func() { resetAll(evicted) }()
	a.mu.Lock()
	defer a.mu.Unlock()
	if t.vouched || t.gone {
		return nil
	}
	for a.used+n > a.bytes {
		e := a.holders.Front()
		if e != nil && e.Value.(*ticket) == t {
			e = e.Next()
		}
		if e == nil {
			return fmt.Errorf("unsigned message of %d octets: with what this connection holds it passes the %d octets all unsigned messages may hold", t.held+n, a.bytes)
		}
		evicted = append(evicted, a.drop(e.Value.(*ticket)))
	}
	a.used += n
	t.held += n
	if t.hold == nil {
		t.hold = a.holders.PushBack(t)
	}
	return nil
}

// settle releases what t's message held: it was read and decoded.
func (a *admission) settle(t *ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.release(t)
}

// leave frees t's seat and octets; the connection closed.
func (a *admission) leave(t *ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !t.gone {
		a.drop(t)
	}
}

// drop removes t and returns it; the caller holds mu and resets it after unlocking.
func (a *admission) drop(t *ticket) *ticket {
	a.release(t)
	if t.wait != nil {
		a.waiting[t.channel].Remove(t.wait)
		t.wait = nil
	}
	a.count[t.channel]--
	t.gone = true
	return t
}

func (a *admission) release(t *ticket) {
	a.used -= t.held
	t.held = 0
	if t.hold != nil {
		a.holders.Remove(t.hold)
		t.hold = nil
	}
}

func resetAll(ts []*ticket) {
	for _, t := range ts {
		t.reset()
	}
}
