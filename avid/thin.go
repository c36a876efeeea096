package avid

import (
	"fmt"
	"math"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// Thinned is a recording thinned by a control: a profile of stack
// snapshots in time order (samples, whose consecutive stacks give the
// calls by stack diffs) and the memory events kept, and the size of what
// was kept.
type Thinned struct {
	Profile *analysis.Profile
	// Records counts what was kept in records of one frame or one time
	// each, as RecordSize counts a recording: an event kept 2 (its frame,
	// or class, and its time), a snapshot its depth + 1.
	Records int64
	// Replays are the entries C-1 kept, with the caller the replay gave
	// them and their true caller, to tell calls put on the wrong arc.
	Replays []Replay
}

// Replay is an entry C-1 kept: its frame, the frame under it on the
// replayed stack and the frame that called it in the recording (-1 for
// none).
type Replay struct {
	Frame, Caller, TrueCaller int32
}

// Thin thins p by c. Every part of p becomes stack snapshots: a traced
// event, and an event C-1 keeps, a snapshot of its thread's (replayed)
// stack right after it, weighing the time to the thread's next snapshot
// (for a traced event, at most to its next event); a snapshot of C-2,
// C-3 or M-3 weighs its sampling period (C-3's and M-2's period, or, for
// C-2 and M-3 with M-1, the mean time of x events of the range), at most
// the time to its thread's next snapshot, so that a gap in which the
// thread was idle is not charged to its last stack beyond one period. A
// snapshot of the empty stack weighs nothing. Memory events are taken after the
// control-flow events of the same time. Frames keep their ids. A control
// that keeps nothing is an error. Time is linear in the events plus the
// snapshots' frames.
func Thin(p *analysis.Profile, c Control) (*Thinned, error) {
	_, ms := analysis.MemoryEvents(p)
	if err := check(p, ms, c); err != nil {
		return nil, err
	}
	th := newThinner(p, ms, c)
	if err := th.c3Room(); err != nil {
		return nil, err
	}
	th.run()
	if !th.keptAny() {
		return nil, fmt.Errorf("%v keeps nothing of the recording's %d events and %d memory events: choose a smaller x",
			c, len(p.Events), len(ms))
	}
	return th.finish(), nil
}

// check refuses samplings the recording has no events for, and bad x.
func check(p *analysis.Profile, ms []analysis.Memory, c Control) error {
	for i := range len(c.Ranges) + 1 {
		s := c.sampling(i)
		switch {
		case !slices.Contains([]string{"", "trace", "C-1", "C-2", "C-3"}, s.Kind):
			return fmt.Errorf("sampling %q: want C-1, C-2, C-3 or trace", s.Kind)
		case !slices.Contains([]string{"", "trace", "M-1", "M-2"}, s.Memory):
			return fmt.Errorf("sampling %q: want M-1, M-2 or trace", s.Memory)
		case s.Kind != "" && s.Kind != "trace" && len(p.Calls) == 0:
			return ErrNotEvented
		case (s.Memory == "M-1" || s.Memory == "M-2") && len(ms) == 0:
			return ErrNoMemory
		case s.Kind == "C-1" && s.Every < 2:
			return fmt.Errorf("C-1 every %d events keeps them all: use 2 or more", s.Every)
		case s.Kind != "" && s.Kind != "trace" && s.Every < 1, s.Memory != "" && s.Memory != "trace" && s.MemoryEvery < 1:
			return fmt.Errorf("%v: use an x of 1 or more", s)
		}
	}
	if len(p.Calls) == 0 && len(ms) == 0 {
		return ErrNotEvented
	}
	return nil
}

// thinner thins one recording.
type thinner struct {
	p       *analysis.Profile
	ms      []analysis.Memory
	c       Control
	ranges  []rangeState // per range of c, then the default
	end     int64        // the time of the last event of either kind
	cur     []int32      // per thread id: its stack after its last event so far, -1 for the empty one, noEvent before its first
	replay  map[int32][]int32
	threads []int32 // in order of first event
	next    []int64 // per event of p.Events: the time of its thread's next event (its own time for the last); nil without a traced range
	snaps   []snap
	kept    []analysis.Memory
	records int64
	replays []Replay
}

// rangeState is what the thinning of one range counts as it goes.
type rangeState struct {
	Sampling
	events, memory         int64 // control-flow and memory events seen so far
	tick, memTick          int64 // the next C-3 and M-2 times
	period, memPeriod      int64 // the weight of a C-2 and of an M-3 snapshot
	nEvents, nMemory       int64 // in the whole range
	firstEv, lastEv        int64
	firstMemory, lastMemry int64
}

// snap is a thread's stack from a time on, and its weight: fixed, or the
// time to the thread's next snapshot, at most limit.
type snap struct {
	time   int64
	thread int32
	stack  []int32 // frames, root first
	weight int64
	toNext bool
	limit  int64
}

func newThinner(p *analysis.Profile, ms []analysis.Memory, c Control) *thinner {
	th := &thinner{p: p, ms: ms, c: c, replay: map[int32][]int32{}, ranges: make([]rangeState, len(c.Ranges)+1)}
	for i := range th.ranges {
		r := &th.ranges[i]
		r.Sampling, r.firstEv, r.firstMemory = c.sampling(i), math.MaxInt64, math.MaxInt64
		if i < len(c.Ranges) {
			r.memTick = c.Ranges[i].From
		}
	}
	for _, e := range p.Events {
		th.ranges[c.at(p.EventTime(e))].seeEvent(p.EventTime(e))
	}
	for i := range ms {
		th.ranges[c.at(ms[i].Time)].seeMemory(ms[i].Time)
	}
	for i := range th.ranges {
		th.ranges[i].periods()
	}
	for _, r := range th.ranges {
		if r.Kind == "trace" && th.next == nil {
			th.next = nextTimes(p)
		}
	}
	if len(p.Events) > 0 {
		th.end = p.EventTime(p.Events[len(p.Events)-1])
	}
	if len(ms) > 0 {
		th.end = max(th.end, ms[len(ms)-1].Time)
	}
	return th
}

func (r *rangeState) seeEvent(t int64) {
	r.nEvents++
	r.firstEv, r.lastEv = min(r.firstEv, t), t
}

func (r *rangeState) seeMemory(t int64) {
	r.nMemory++
	r.firstMemory, r.lastMemry = min(r.firstMemory, t), t
}

// periods sets the weights of the range's snapshots and its first C-3
// tick, at its first control-flow event.
func (r *rangeState) periods() {
	r.tick = r.firstEv
	switch r.Kind {
	case "C-2":
		r.period = meanTime(r.lastEv-r.firstEv, r.nEvents, r.Every)
	case "C-3":
		r.period = r.Every
	}
	switch {
	case r.Memory == "M-2":
		r.memPeriod = r.MemoryEvery
	case r.Memory == "M-1":
		r.memPeriod = meanTime(r.lastMemry-r.firstMemory, r.nMemory, r.MemoryEvery)
	}
}

// meanTime is the mean time of x of n events spread over span, at least
// 1 ns.
func meanTime(span, n, x int64) int64 {
	if n <= 1 {
		return 1
	}
	return max(int64(float64(span)/float64(n-1)*float64(x)), 1)
}

// nextTimes returns, per event, the time of its thread's next event.
func nextTimes(p *analysis.Profile) []int64 {
	next := make([]int64, len(p.Events))
	after := map[int32]int64{}
	for i := len(p.Events) - 1; i >= 0; i-- {
		e := p.Events[i]
		thread, t := p.CallThread(&p.Calls[e.Call]), p.EventTime(e)
		n, ok := after[thread]
		if !ok {
			n = t
		}
		next[i], after[thread] = n, t
	}
	return next
}

// run walks the events of both kinds in time order, control flow first at
// equal times, then takes the C-3 snapshots due by the end.
func (th *thinner) run() {
	p, i, j := th.p, 0, 0
	for i < len(p.Events) || j < len(th.ms) {
		if j == len(th.ms) || i < len(p.Events) && p.EventTime(p.Events[i]) <= th.ms[j].Time {
			th.ticks(p.EventTime(p.Events[i]))
			th.event(i)
			i++
			continue
		}
		th.ticks(th.ms[j].Time)
		th.memory(&th.ms[j])
		j++
	}
	th.ticks(th.end + 1)
}

// event handles control-flow event i: the thread's stack after it, and
// what its range's sampling keeps of it.
func (th *thinner) event(i int) {
	p := th.p
	e := p.Events[i]
	c := &p.Calls[e.Call]
	thread, t := p.CallThread(c), p.EventTime(e)
	for int(thread) >= len(th.cur) {
		th.cur = append(th.cur, noEvent)
	}
	if th.cur[thread] == noEvent {
		th.threads = append(th.threads, thread)
	}
	th.cur[thread] = stackAfter(p, e)
	r := &th.ranges[th.c.at(t)]
	switch r.Kind {
	case "trace":
		th.records += 2
		th.snaps = append(th.snaps, snap{time: t, thread: thread, stack: th.stack(thread), toNext: true, limit: th.next[i] - t})
	case "C-1":
		if r.events++; r.events%r.Every == 0 {
			th.records += 2
			if !e.Exit {
				th.replays = append(th.replays, Replay{Frame: c.Frame, Caller: top(th.replay[thread]), TrueCaller: callerFrame(p, c)})
			}
			th.snaps = append(th.snaps, snap{time: t, thread: thread, stack: th.replayed(thread, e, c), toNext: true, limit: math.MaxInt64})
		}
	case "C-2":
		if r.events++; r.events%r.Every == 0 {
			th.snapshot(t, thread, th.stack(thread), r.period)
		}
	}
}

// replayed replays event e, of call c, on thread's replayed stack: an
// entry enters c's frame, an exit leaves the innermost frame (if any).
func (th *thinner) replayed(thread int32, e analysis.Event, c *analysis.Call) []int32 {
	st := th.replay[thread]
	switch {
	case !e.Exit:
		st = append(st, c.Frame)
	case len(st) > 0:
		st = st[:len(st)-1]
	}
	th.replay[thread] = st
	return slices.Clone(st)
}

// top returns the innermost frame of a stack, -1 for the empty one.
func top(st []int32) int32 {
	if len(st) == 0 {
		return -1
	}
	return st[len(st)-1]
}

// callerFrame returns the frame of the call that made call c, -1 at the
// root.
func callerFrame(p *analysis.Profile, c *analysis.Call) int32 {
	if c.Parent < 0 {
		return -1
	}
	return p.Calls[c.Parent].Frame
}

// noEvent marks a thread with no event yet in thinner.cur.
const noEvent = -2

// stack returns the frames of thread's stack now.
func (th *thinner) stack(thread int32) []int32 {
	if int(thread) < len(th.cur) && th.cur[thread] >= 0 {
		s := th.cur[thread]
		return th.p.Stacks.At(s)
	}
	return nil
}

// snapshot keeps a snapshot of a fixed weight.
func (th *thinner) snapshot(t int64, thread int32, stack []int32, weight int64) {
	th.records += int64(len(stack)) + 1
	th.snaps = append(th.snaps, snap{time: t, thread: thread, stack: stack, weight: weight})
}

// ticks takes the C-3 snapshots due before time t: at each tick of a C-3
// range that falls in the range, every thread's stack.
func (th *thinner) ticks(t int64) {
	for i := range th.ranges {
		r := &th.ranges[i]
		if r.Kind != "C-3" {
			continue
		}
		for ; r.tick < t && r.tick <= th.end; r.tick += r.Every {
			if th.c.at(r.tick) != i {
				continue
			}
			for _, thread := range th.threads {
				th.snapshot(r.tick, thread, th.stack(thread), r.period)
			}
		}
	}
}

// stackAfter returns the stack of e's thread right after e, -1 for the
// empty stack.
func stackAfter(p *analysis.Profile, e analysis.Event) int32 {
	c := &p.Calls[e.Call]
	switch {
	case !e.Exit:
		return c.Stack
	case c.Parent >= 0:
		return p.Calls[c.Parent].Stack
	}
	return -1
}

// keptAny reports whether the thinning kept a frame or a memory event.
func (th *thinner) keptAny() bool {
	if len(th.kept) > 0 {
		return true
	}
	for _, s := range th.snaps {
		if len(s.stack) > 0 {
			return true
		}
	}
	return false
}
