package live

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNeverSays: a kind the budget can never pay is marked with what its
// shortest collection reserves (twice its expected cost before one is
// measured: a trace of minTrace, other kinds as long as they are) and a
// budget that would pay for one a minute; that budget does.
func TestNeverSays(t *testing.T) {
	for _, k := range []Kind{CPU, Trace, Heap} {
		w := 10 * time.Second
		g := newGovernor(Plan{Budget: 1e-6, Kinds: []Kind{k}, Window: w}, 2)
		why := g.kinds[0].never
		d := k.length(w)
		if k == Trace {
			d = minTrace
		}
		reserve := 2 * g.costOf(k, d)
		var said time.Duration
		var pct float64
		if _, err := fmtScan(why, "each collection reserves ", &said); err != nil || math.Abs(said.Seconds()-reserve) > 1e-6 {
			t.Errorf("%s: %q: want a reservation of %.6f s (%v)", k, why, reserve, err)
		}
		if _, err := fmtScan(why, "budget=", &pct); err != nil {
			t.Fatalf("%s: %q: %v", k, why, err)
		}
		if pct/100 > reserve/time.Minute.Seconds()*1.011 {
			t.Errorf("%s: %q: budget=%g%% is more than a minute's share of the reservation, %.4g%%", k, why, pct, 100*reserve/time.Minute.Seconds())
		}
		if g2 := newGovernor(Plan{Budget: pct / 100, Kinds: []Kind{k}, Window: w}, 2); g2.kinds[0].never != "" {
			t.Errorf("%s: budget=%g%%, as %q says, still never pays: %s", k, pct, why, g2.kinds[0].never)
		}
	}
}

// fmtScan reads a duration or a percentage that follows prefix in s.
func fmtScan(s, prefix string, into any) (string, error) {
	_, rest, ok := strings.Cut(s, prefix)
	if !ok {
		return "", strconv.ErrSyntax
	}
	word, _, _ := strings.Cut(rest, " ")
	word = strings.TrimRight(word, ",;")
	switch p := into.(type) {
	case *time.Duration:
		d, err := time.ParseDuration(word)
		*p = d
		return word, err
	case *float64:
		f, err := strconv.ParseFloat(strings.TrimSuffix(word, "%"), 64)
		*p = f
		return word, err
	}
	return "", strconv.ErrSyntax
}

// TestLeftoverByWeight: when the budget pays every kind running once a
// window, each gets what that uses, and what is left is shared by weight
// (1, 1/2, 1/3 in the order asked, jobWeight for a triggered
// collection); all of the budget is given out, and with nothing scheduled
// nothing is.
func TestLeftoverByWeight(t *testing.T) {
	w := 10 * time.Second
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU, Heap, Goroutine}, Window: w}, 4)
	var sum float64
	left := 0.5
	for _, k := range g.kinds {
		left -= g.costOf(k.kind, k.kind.length(w)) / w.Seconds()
	}
	for i, k := range g.kinds {
		uses := g.costOf(k.kind, k.kind.length(w)) / w.Seconds()
		want := uses + left*(1/float64(i+1))/(1+1.0/2+1.0/3)
		if math.Abs(k.rate-want) > 1e-12 {
			t.Errorf("%s: rate %g, want %g (its use %g and its part of the %g left)", k.kind, k.rate, want, uses, left)
		}
		sum += k.rate
	}
	if math.Abs(sum-0.5) > 1e-12 {
		t.Errorf("rates sum to %g, want the budget 0.5", sum)
	}
	if u := 0.5 - left; math.Abs(g.usable()-u) > 1e-12 {
		t.Errorf("usable %g, want what the kinds use, %g", g.usable(), u)
	}
	// A triggered collection, first at weight jobWeight, uses its
	// reservation within a window; it is not counted as usable.
	j := g.request(0, Heap, 0, "test")
	uses := g.predict(j) / w.Seconds()
	if want := uses + (left-uses)*jobWeight/(jobWeight+1+1.0/2+1.0/3); math.Abs(j.rate-want) > 1e-12 || math.Abs(g.usable()-(0.5-left)) > 1e-12 {
		t.Errorf("job: rate %g, usable %g; want %g, %g", j.rate, g.usable(), want, 0.5-left)
	}
	g.setKinds(time.Second, nil) // only the triggered collection is left: it is given all
	for _, k := range g.kinds {
		if want := map[bool]float64{true: 0.5}[k == j]; math.Abs(k.rate-want) > 1e-12 {
			t.Errorf("no kind scheduled: %s (job %q) rate %g, want %g", k.kind, k.job, k.rate, want)
		}
	}
	g.retire(j) // and with nothing at all, nothing is given
	g.reallocate()
	for _, k := range g.kinds {
		if k.rate != 0 {
			t.Errorf("nothing scheduled: %s rate %g, want 0", k.kind, k.rate)
		}
	}
}

// TestStartsOnTheWindow: with a budget to spare, the first window of a
// kind starts as soon as its credit pays its reservation, and the next
// ones exactly one window apart, snapshots too; the last may end exactly
// when the attachment does.
func TestStartsOnTheWindow(t *testing.T) {
	for _, kind := range []Kind{CPU, Goroutine} {
		s := &sim{p: Plan{Budget: 0.5, Kinds: []Kind{kind}, Window: time.Second, For: 10 * time.Second}, cost: costs, jitter: func() float64 { return 1 }}
		s.run(t)
		first := s.starts[0].at
		s = &sim{p: Plan{Budget: 0.5, Kinds: []Kind{kind}, Window: time.Second, For: first + 10*time.Second}, cost: costs, jitter: func() float64 { return 1 }}
		s.run(t)
		for i, st := range s.starts {
			if want := first + time.Duration(i)*time.Second; st.at != want {
				t.Fatalf("%s window %d started at %v, want %v (all: %v)", kind, i, st.at, want, s.starts)
			}
		}
		if n, reserved := len(s.starts), time.Duration(s.starts[0].reserved/0.5*float64(time.Second)); n != 10 || first-reserved > time.Millisecond || reserved > first {
			t.Errorf("%s: %d windows in 10 s from %v, want 10 from %v, when the credit pays", kind, n, first, reserved)
		}
	}
}

// TestRefusedJobLeavesNothing: a triggered collection of a kind not asked
// for that the target refused leaves no trace in the kinds; one that ran
// is kept by a manual kind.
func TestRefusedJobLeavesNothing(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU}, Window: time.Second}, 2)
	for _, refused := range []bool{true, false} {
		j := g.request(0, Heap, 0, "test")
		g.start(j, 0)
		g.done(j, 10*time.Millisecond, 0, refused) // a cost measured at 0 is a cost
		if k := g.find(Heap); (k != nil) == refused || k != nil && (!k.manual || k.windows != 1) {
			t.Errorf("refused %v: heap kept as %+v", refused, k)
		}
	}
}

// TestJobKeepsItsCredit: a triggered collection that has earned its
// credit still runs when the budget is then lowered below what a new one
// could ever be paid.
func TestJobKeepsItsCredit(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU}, Window: time.Second}, 2)
	j := g.request(0, Heap, 0, "test")
	now := time.Duration(0)
	for ; !g.ready(j, now) && now < time.Minute; now += 10 * time.Millisecond {
		g.advance(now)
	}
	if !g.ready(j, now) {
		t.Fatal("the job never became ready at budget 0.5")
	}
	g.setBudget(now, 1e-7)
	if j.never == "" || !g.ready(j, now) {
		t.Errorf("after the budget fell to 1e-7: never %q, ready %v; want never said and the job still ready", j.never, g.ready(j, now))
	}
}

// TestPercentUp: a budget shown rounded up is at least what it was
// computed for, read back as shown, and above it by a unit of its third
// significant digit at most.
func TestPercentUp(t *testing.T) {
	for _, x := range []float64{0.05 / 60, 0.02 / 60, 0.0005, 0.123456, 1.0 / 3, 0.009999, 1e-7} {
		if percentUp(0) != "0%" {
			t.Errorf("percentUp(0) = %s, want 0%%", percentUp(0))
		}
		s := percentUp(x)
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || f/100 < x || f/100 > x*1.011 {
			t.Errorf("percentUp(%g) = %s (Percent: %s): want a value at or above it, by at most a unit of its third digit", x, s, Percent(x))
		}
	}
}
