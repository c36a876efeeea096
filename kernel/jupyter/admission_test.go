package jupyter

import (
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
)

// seated is a ticket and whether the admission reset its connection.
type seated struct {
	t     *ticket
	reset bool
}

func admitOn(t *testing.T, a *admission, channel string) *seated {
	t.Helper()
	s := &seated{}
	tk, err := a.admit(channel, func() { s.reset = true })
	if err != nil {
		t.Fatalf("admit on %s: %v", channel, err)
	}
	s.t = tk
	return s
}

// TestAdmissionSeats: a full channel evicts its oldest connection not
// vouched for, never a vouched one, and refuses the newcomer only when every
// seat is vouched for; channels do not share seats.
func TestAdmissionSeats(t *testing.T) {
	a := newAdmission(3, 1<<20)
	s1, s2, s3 := admitOn(t, a, "shell"), admitOn(t, a, "shell"), admitOn(t, a, "shell")
	a.vouch(s1.t)
	hb := admitOn(t, a, "hb")
	s4 := admitOn(t, a, "shell")
	if s1.reset || !s2.reset || s3.reset || hb.reset {
		t.Fatalf("fourth on shell reset (s1 %v, s2 %v, s3 %v, hb %v); want only s2, the oldest not vouched for", s1.reset, s2.reset, s3.reset, hb.reset)
	}
	a.vouch(s3.t)
	a.vouch(s4.t)
	if _, err := a.admit("shell", func() { t.Error("a refused newcomer was reset by the admission") }); err != errNoSeat {
		t.Fatalf("admit with every seat vouched for: %v, want errNoSeat", err)
	}
	if s1.reset || s3.reset || s4.reset {
		t.Fatal("a vouched connection was evicted")
	}
	a.leave(s3.t)
	a.leave(s3.t) // twice: the seat is freed once
	a.vouch(admitOn(t, a, "shell").t)
	if _, err := a.admit("shell", func() {}); err != errNoSeat {
		t.Fatalf("admit after one leave and one vouched admit: %v, want errNoSeat", err)
	}
	if a.count["hb"] != 1 || a.count["shell"] != 3 {
		t.Errorf("seats taken: hb %d, shell %d; want 1 and 3", a.count["hb"], a.count["shell"])
	}
}

// TestAdmissionBytes: unsigned octets are bounded in all; a reservation
// that does not fit evicts the oldest other holders, and is refused when it
// cannot fit even alone; vouched connections are not counted.
func TestAdmissionBytes(t *testing.T) {
	a := newAdmission(10, 100)
	s1, s2, s3 := admitOn(t, a, "shell"), admitOn(t, a, "control"), admitOn(t, a, "shell")
	for _, r := range []struct {
		s *seated
		n int64
	}{{s1, 40}, {s2, 30}, {s3, 30}} {
		if err := a.reserve(r.s.t, r.n); err != nil {
			t.Fatalf("reserve %d: %v", r.n, err)
		}
	}
	if s1.reset || s2.reset || s3.reset || a.used != 100 {
		t.Fatalf("100 octets reserved of 100: resets %v %v %v, used %d; want no reset", s1.reset, s2.reset, s3.reset, a.used)
	}
	if err := a.reserve(s3.t, 50); err != nil {
		t.Fatalf("reserve 50 more on s3: %v", err)
	}
	if !s1.reset || !s2.reset || s3.reset || a.used != 80 {
		t.Fatalf("after s3 asked 50 more: s1 reset %v, s2 reset %v, s3 reset %v, used %d; want s1 and s2 evicted, 80 used", s1.reset, s2.reset, s3.reset, a.used)
	}
	want := "unsigned message of 101 octets: with what this connection holds it passes the 100 octets all unsigned messages may hold"
	if err := a.reserve(s3.t, 21); err == nil || err.Error() != want {
		t.Fatalf("s3 reserving past the bound alone: %v, want %q", err, want)
	}
	a.settle(s3.t)
	if a.used != 0 {
		t.Fatalf("after settle: %d used, want 0", a.used)
	}
	s4 := admitOn(t, a, "shell")
	a.vouch(s4.t)
	if err := a.reserve(s4.t, 1000); err != nil || a.used != 0 {
		t.Fatalf("vouched reserve 1000: %v, %d used; want no error, nothing counted", err, a.used)
	}
	a.reserve(s3.t, 70)
	a.leave(s3.t)
	if a.used != 0 || a.holders.Len() != 0 {
		t.Errorf("after leave: %d used by %d holders, want none", a.used, a.holders.Len())
	}
}

// TestAdmissionRandom runs random admissions, vouches, reservations,
// settles and leaves and checks after each that the accounts hold: seats
// and octets within their bounds and equal to what the live tickets hold,
// no vouched ticket ever reset, every reset ticket gone.
func TestAdmissionRandom(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 1))
		a := newAdmission(1+rng.IntN(5), int64(1+rng.IntN(200)))
		var live, all []*seated
		channels := []string{"shell", "control", "hb"}
		for step := range 300 {
			if i := rng.IntN(len(live) + 1); i < len(live) {
				s := live[i]
				switch rng.IntN(4) {
				case 0:
					a.vouch(s.t)
				case 1:
					a.reserve(s.t, int64(rng.IntN(80)))
				case 2:
					a.settle(s.t)
				case 3:
					a.leave(s.t)
				}
			} else {
				s := &seated{}
				if tk, err := a.admit(channels[rng.IntN(3)], func() { s.reset = true }); err == nil {
					s.t = tk
					live, all = append(live, s), append(all, s)
				}
			}
			live = slices.DeleteFunc(live, func(s *seated) bool { return s.t.gone })
			for _, s := range all {
				if s.reset && (s.t.vouched || !s.t.gone) {
					t.Fatalf("seed %d step %d: reset a ticket vouched for (%v) or still seated (%v)", seed, step, s.t.vouched, !s.t.gone)
				}
			}
			checkAccounts(t, a, live, seed, step)
		}
	}
}

func checkAccounts(t *testing.T, a *admission, live []*seated, seed uint64, step int) {
	t.Helper()
	var held int64
	count := map[string]int{}
	for _, s := range live {
		if s.reset {
			t.Fatalf("seed %d step %d: a live ticket was reset", seed, step)
		}
		held += s.t.held
		count[s.t.channel]++
		if s.t.vouched && (s.t.held != 0 || s.t.wait != nil) {
			t.Fatalf("seed %d step %d: a vouched ticket holds %d octets or waits", seed, step, s.t.held)
		}
	}
	if held != a.used || a.used > a.bytes || a.used < 0 {
		t.Fatalf("seed %d step %d: used %d, live tickets hold %d, bound %d", seed, step, a.used, held, a.bytes)
	}
	for ch, n := range a.count {
		if n != count[ch] || n > a.seats {
			t.Fatalf("seed %d step %d: %s counts %d seats, %d live, %d allowed", seed, step, ch, n, count[ch], a.seats)
		}
	}
}

// TestSeatsFor: each channel gets a tenth of the descriptors the process may
// open, between 16 and 1000, so the five channels hold at most half.
func TestSeatsFor(t *testing.T) {
	for _, tt := range []struct {
		nofile uint64
		want   int
	}{{100, 16}, {160, 16}, {640, 64}, {1024, 102}, {10000, 1000}, {20000, 1000}, {1 << 20, 1000}} {
		if got := seatsOf(tt.nofile); got != tt.want {
			t.Errorf("seatsOf(%d) = %d, want %d", tt.nofile, got, tt.want)
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err == nil && seatsFor() != seatsOf(rl.Cur) {
		t.Errorf("seatsFor() = %d with %d descriptors, want %d", seatsFor(), rl.Cur, seatsOf(rl.Cur))
	}
}
