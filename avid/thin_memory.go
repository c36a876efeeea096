package avid

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/proflens/proflens/analysis"
)

// memory handles memory event m: whether its range's sampling keeps it
// (M-1: every x-th of the range; M-2: the first at or after each tick of
// x from the range's start; trace: all), and with what context.
func (th *thinner) memory(m *analysis.Memory) {
	r := &th.ranges[th.c.at(m.Time)]
	switch r.Memory {
	case "trace":
		th.keep(m, m.Stack)
		return
	case "M-1":
		if r.memory++; r.memory%r.MemoryEvery != 0 {
			return
		}
	case "M-2":
		if m.Time < r.memTick {
			return
		}
		r.memTick += ((m.Time-r.memTick)/r.MemoryEvery + 1) * r.MemoryEvery // the first tick after m
	default:
		return
	}
	if !r.Snap {
		th.keep(m, -1)
		return
	}
	var stack []int32
	if m.Stack >= 0 {
		stack = th.p.Stacks.At(m.Stack)
	}
	th.snapshot(m.Time, m.Thread, stack, r.memPeriod)
	th.keep(m, m.Stack)
}

// keep keeps memory event m with a stack (-1 for none). Without a stack,
// a class-less event keeps its allocating frame as its class, which is
// what its entity comes from.
func (th *thinner) keep(m *analysis.Memory, stack int32) {
	k := *m
	if k.Stack = stack; stack < 0 && k.Class < 0 && m.Stack >= 0 {
		if st := th.p.Stacks.At(m.Stack); len(st) > 0 {
			k.Class = st[len(st)-1]
		}
	}
	th.records += 2
	th.kept = append(th.kept, k)
}

// c3Room refuses a C-3 period that would take more snapshots (ticks times
// threads) than a profile may hold samples (DefaultLimits.Samples), naming
// a period that fits.
func (th *thinner) c3Room() error {
	threads := map[int32]bool{}
	for i := range th.p.Calls {
		threads[th.p.CallThread(&th.p.Calls[i])] = true
	}
	n := int64(max(len(threads), 1))
	limit := analysis.DefaultLimits.Samples
	for _, r := range th.ranges {
		if r.Kind != "C-3" || r.nEvents == 0 {
			continue
		}
		span := th.end - r.firstEv
		if ticks := span/r.Every + 1; ticks > limit || ticks*n > limit {
			fit := twoDigitsUp(span/(limit/n-1) + 1) // (span/fit + 1) × threads ≤ limit
			return fmt.Errorf("C-3 every %v takes %d snapshots of %d threads, more than the limit of %d: use a period of %v or more",
				time.Duration(r.Every), ticks*n, n, limit, time.Duration(fit))
		}
	}
	return nil
}

// finish builds the thinned profile: the snapshots as samples in time
// order, in wall time, and the memory events kept.
func (th *thinner) finish() *Thinned {
	p := th.p
	b := analysis.NewBuilder(p.Format, analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	for _, f := range p.Frames {
		b.Frame(f)
	}
	w := th.weights()
	order := make([]int, len(th.snaps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(th.snaps[a].time, th.snaps[b].time) })
	for _, i := range order {
		s := th.snaps[i]
		b.Add(b.Stack(s.stack), []int64{w[i]}, s.time, true, p.ThreadName(s.thread), nil)
	}
	for _, m := range th.kept {
		if m.Stack >= 0 {
			m.Stack = b.Stack(p.Stacks.At(m.Stack))
		}
		b.Memory(m, p.ThreadName(m.Thread))
	}
	q := b.Finish()
	q.Source, q.Lang, q.Start, q.Duration = p.Source, p.Lang, p.Start, p.Duration
	q.MemorySource = th.memorySource()
	q.Comment = append(slices.Clip(p.Comment), "thinned by "+th.c.String())
	return &Thinned{Profile: q, Records: th.records, Replays: th.replays}
}

// weights returns each snapshot's weight: its sampling period, or the time
// to its thread's next snapshot, whichever is shorter (for a traced or C-1
// snapshot, the time to the next one, at most its limit); nothing for the
// empty stack.
func (th *thinner) weights() []int64 {
	w := make([]int64, len(th.snaps))
	next := map[int32]int64{}
	for i := len(th.snaps) - 1; i >= 0; i-- {
		s := th.snaps[i]
		end, ok := next[s.thread]
		if !ok {
			end = th.end
		}
		next[s.thread] = s.time
		switch {
		case len(s.stack) == 0:
		case s.toNext:
			w[i] = min(max(end-s.time, 0), s.limit)
		default:
			w[i] = min(s.weight, max(end-s.time, 0))
		}
	}
	return w
}

// memorySource is the thinned recording's: the recording's where every
// memory event was kept, else sampled.
func (th *thinner) memorySource() analysis.MemorySource {
	src, _ := analysis.MemoryEvents(th.p)
	for _, r := range th.ranges {
		if r.Memory == "M-1" || r.Memory == "M-2" {
			return analysis.MemorySampled
		}
	}
	return src
}
