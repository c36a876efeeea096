package avid

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/proflens/proflens/analysis"
)

// Sampling is one of the paper's samplings of an evented recording's
// control flow (seed 001, §2.2):
//   - C-1 keeps every Every-th entry or exit event; the thinned recording
//     replays the events it kept, so an entry's caller is whatever the kept
//     events left on the stack;
//   - C-2 takes a snapshot of the call stack of the thread of every
//     Every-th event, and entries are recovered by diffing snapshots;
//   - C-3 takes a snapshot of every thread's call stack every Every
//     nanoseconds from the first event.
type Sampling struct {
	Kind  string // "C-1", "C-2" or "C-3"
	Every int64  // events (C-1, C-2) or nanoseconds (C-3)
}

func (s Sampling) String() string {
	if s.Kind == "C-3" {
		return fmt.Sprintf("C-3 every %v", time.Duration(s.Every))
	}
	return fmt.Sprintf("%s every %d events", s.Kind, s.Every)
}

// ErrNotEvented says a profile has no calls to thin.
var ErrNotEvented = errors.New("sampling thins an evented recording (a Chrome trace's B/E/X spans, " +
	"a speedscope evented profile), and this profile has no calls")

// Thin returns p thinned by s: for C-1 an evented recording, for C-2 and
// C-3 a profile of the snapshots in time order, each weighing the time to
// its thread's next snapshot (or to the recording's end), in p's default
// value type. Frames keep their ids. Time is linear in the events plus
// the snapshots' frames.
func Thin(p *analysis.Profile, s Sampling) (*analysis.Profile, error) {
	switch {
	case len(p.Calls) == 0:
		return nil, ErrNotEvented
	case s.Kind == "C-1" && s.Every < 2:
		return nil, fmt.Errorf("C-1 every %d events keeps them all: use 2 or more", s.Every)
	case s.Every < 1:
		return nil, fmt.Errorf("%s every %d: use 1 or more", s.Kind, s.Every)
	}
	th := &thinner{p: p, b: analysis.NewBuilder(p.Format, p.ValueTypes[p.DefaultValue]), end: p.EventTime(p.Events[len(p.Events)-1])}
	for _, f := range p.Frames {
		th.b.Frame(f)
	}
	switch s.Kind {
	case "C-1":
		th.c1(s.Every)
	case "C-2":
		th.c2(s.Every)
	case "C-3":
		if err := th.c3Room(s.Every); err != nil {
			return nil, err
		}
		th.c3(s.Every)
	default:
		return nil, fmt.Errorf("sampling %q: want C-1, C-2 or C-3", s.Kind)
	}
	th.addSnaps()
	q := th.b.Finish()
	q.Source, q.Lang, q.Start, q.Duration = p.Source, p.Lang, p.Start, p.Duration
	q.Comment = append(slices.Clip(p.Comment), "thinned by "+s.String())
	return q, nil
}

// thinner builds a thinned recording.
type thinner struct {
	p     *analysis.Profile
	b     *analysis.Builder
	end   int64
	snaps []snap
	// entered says the thinned recording has calls (C-1 kept an entry):
	// its empty stacks are then no samples.
	entered bool
}

// snap is a thread's stack from a time on.
type snap struct {
	time   int64
	thread int32
	stack  []int32 // frames, root first
}

// c1 replays every n-th event: an entry enters its frame on the thinned
// stack, an exit leaves the thinned stack's innermost frame.
func (th *thinner) c1(n int64) {
	p := th.p
	stacks := map[int32][]int32{}
	for i, e := range p.Events {
		if int64(i+1)%n != 0 {
			continue
		}
		c := &p.Calls[e.Call]
		name, st := p.ThreadName(p.CallThread(c)), stacks[p.CallThread(c)]
		if e.Exit {
			if th.b.Exit(name, c.Exit) {
				st = st[:len(st)-1]
			}
		} else {
			th.b.Enter(name, c.Frame, c.Enter)
			th.entered = true
			st = append(st, c.Frame)
		}
		stacks[p.CallThread(c)] = st
		th.snaps = append(th.snaps, snap{p.EventTime(e), p.CallThread(c), slices.Clone(st)})
	}
}

// c2 snapshots the stack of the thread of every n-th event.
func (th *thinner) c2(n int64) {
	p := th.p
	for i, e := range p.Events {
		if int64(i+1)%n == 0 {
			c := &p.Calls[e.Call]
			th.snaps = append(th.snaps, snap{p.EventTime(e), p.CallThread(c), th.stackAfter(e)})
		}
	}
}

// c3 snapshots every thread's stack at the first event's time and every
// period after it, up to the last event.
func (th *thinner) c3(period int64) {
	p := th.p
	current := map[int32]analysis.Event{} // per thread: its last event so far
	var threads []int32                   // in order of first event
	next := p.EventTime(p.Events[0])
	for i := 0; next <= th.end; next += period {
		for ; i < len(p.Events) && p.EventTime(p.Events[i]) <= next; i++ {
			t := p.CallThread(&p.Calls[p.Events[i].Call])
			if _, ok := current[t]; !ok {
				threads = append(threads, t)
			}
			current[t] = p.Events[i]
		}
		for _, t := range threads {
			th.snaps = append(th.snaps, snap{next, t, th.stackAfter(current[t])})
		}
	}
}

// c3Room refuses a period that would take more snapshots (ticks times
// threads) than a profile may hold samples (DefaultLimits.Samples), naming
// a period that fits.
func (th *thinner) c3Room(period int64) error {
	threads := map[int32]bool{}
	for i := range th.p.Calls {
		threads[th.p.CallThread(&th.p.Calls[i])] = true
	}
	span := th.end - th.p.EventTime(th.p.Events[0])
	n, max := (span/period+1)*int64(len(threads)), analysis.DefaultLimits.Samples
	if span/period+1 > max || n > max {
		fit := twoDigitsUp(span/(max/int64(len(threads))-1) + 1) // (span/fit + 1) × threads ≤ max
		return fmt.Errorf("C-3 every %v takes %d snapshots of %d threads, more than the limit of %d: use a period of %v or more",
			time.Duration(period), n, len(threads), max, time.Duration(fit))
	}
	return nil
}

// stackAfter returns the frames of the stack of e's thread right after e.
func (th *thinner) stackAfter(e analysis.Event) []int32 {
	p := th.p
	c := &p.Calls[e.Call]
	switch {
	case !e.Exit:
		return p.Stacks.At(c.Stack)
	case c.Parent >= 0:
		return p.Stacks.At(p.Calls[c.Parent].Stack)
	}
	return nil
}

// addSnaps adds the snapshots as samples in time order, each weighing the
// time to its thread's next snapshot, at most to the thread's last event.
// The snapshots of C-1 are the thinned recording's states: there, only the
// non-empty stacks become samples.
func (th *thinner) addSnaps() {
	last := map[int32]int64{} // per thread: the time of its last event
	for _, e := range th.p.Events {
		last[th.p.CallThread(&th.p.Calls[e.Call])] = th.p.EventTime(e)
	}
	next := map[int32]int64{}
	w := make([]int64, len(th.snaps))
	for i := len(th.snaps) - 1; i >= 0; i-- {
		s := th.snaps[i]
		end, ok := next[s.thread]
		if !ok {
			end = th.end
		}
		w[i], next[s.thread] = max(min(end, last[s.thread])-s.time, 0), s.time
	}
	order := make([]int, len(th.snaps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(th.snaps[a].time, th.snaps[b].time) })
	for _, i := range order {
		s := th.snaps[i]
		if th.entered && len(s.stack) == 0 {
			continue
		}
		th.b.Add(th.b.Stack(s.stack), []int64{w[i]}, s.time, true, th.p.ThreadName(s.thread), nil)
	}
}

// RecordSize is the size of a recording in records of one frame or one
// time each: an event records a frame and a time (2), a snapshot its
// stack's frames and a time (depth + 1). An evented recording is measured
// by its events, a sampled one by its samples.
func RecordSize(p *analysis.Profile) int64 {
	if len(p.Calls) > 0 {
		return 2 * int64(len(p.Events))
	}
	var n int64
	for i := range p.Samples {
		n += int64(len(p.Stacks.At(p.Samples[i].Stack))) + 1
	}
	return n
}

// Settings returns the paper's six samplings of Table 1 scaled to p: C-1
// and C-2 every x events and C-3 every x events' mean time, for x = 1000
// and 100 as the paper has them when p has 100,000 events or more; for a
// shorter recording the coarse x is a hundredth of its events (at least 2)
// and the fine one a tenth of that (at least 2), and a setting the same as
// the one before it is left out.
func Settings(p *analysis.Profile) []Sampling {
	events := int64(len(p.Events))
	coarse := min(max(events/100, 2), 1000)
	fine := max(coarse/10, 2)
	span := int64(0)
	if events > 0 {
		span = p.EventTime(p.Events[events-1]) - p.EventTime(p.Events[0])
	}
	period := func(x int64) int64 { return twoDigits(max(span*x/max(events, 1), 1)) }
	var out []Sampling
	for _, s := range []Sampling{{"C-1", coarse}, {"C-1", fine}, {"C-2", coarse}, {"C-2", fine}, {"C-3", period(coarse)}, {"C-3", period(fine)}} {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// twoDigits rounds n to its two leading digits (677118 to 680000).
func twoDigits(n int64) int64 {
	scale := twoDigitScale(n)
	return (n + scale/2) / scale * scale
}

// twoDigitsUp rounds n up to two leading digits (677118 to 680000, 101 to
// 110).
func twoDigitsUp(n int64) int64 {
	scale := twoDigitScale(n)
	return (n + scale - 1) / scale * scale
}

// twoDigitScale is the power of ten below n's two leading digits.
func twoDigitScale(n int64) int64 {
	scale := int64(1)
	for n/scale >= 100 {
		scale *= 10
	}
	return scale
}
