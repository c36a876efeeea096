package avid

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"time"

	"github.com/proflens/proflens/analysis"
)

// CelStep says how a recording is cut into cels: every Entries entries, or
// every Period nanoseconds (one of them is set).
type CelStep struct {
	Entries int64
	Period  int64
}

// Cel is one step of AVID's animation (the paper's Figure 1): the calls
// between entities made in the step and up to its end, and the call stack
// at its end.
type Cel struct {
	Start, End int64   // nanoseconds since the profile's start: the cel's first and last steps, or its period
	Entries    int64   // frames entered in the cel
	Stack      []int32 // the entities on the call stack at the cel's end, outermost first, runs of one entity merged
	Step       []int64 // per arc of Cels.Arcs: the calls made in the cel
	Total      []int64 // per arc: the calls made up to the cel's end
	// Self is, per entity, the value (Cels.Value) of the samples whose leaf
	// frame is in it, up to the cel's end.
	Self []int64
	// Objects counts, per entity, the objects allocated and freed up to the
	// cel's end; nil when the recording has no memory events.
	Objects *Objects
}

// Cels is a recording cut into cels under a mapping.
type Cels struct {
	Map       *EntityMap
	Source    analysis.CountSource
	Unit      string // of the cels' times: nanoseconds, or an evented recording's own unit
	Arcs      []Arc  // every arc of the recording, with its calls in all, sorted as Entities.Arcs
	Cels      []Cel
	Value     int                // the value type of Cel.Self (an index into the profile's)
	ValueType analysis.ValueType // its type and unit
}

// ErrNoTimeOrder says a profile has neither events nor samples in time
// order, which cels and sampling need.
var ErrNoTimeOrder = errors.New("no time order: cels and sampling need an evented recording " +
	"(a Chrome trace's B/E/X spans, a speedscope evented profile) or samples with times " +
	"(a Go execution trace, perf script, a V8 or Chrome CPU profile)")

// NewCels cuts the steps of t's profile (Steps) into cels. A cel of
// Entries ends right after its last entry; a cel of Period covers
// [start+k·Period, start+(k+1)·Period) from the first step. The stack
// shown at a cel's end is that of the thread of the cel's last step (the
// previous cel's, for a cel without steps). Samples (their values of type
// value) and memory events belong to the last cel that starts at or before
// their time (the first cel, before it). More than max cels is an error
// naming a step that fits. Time is linear in the steps, entries, samples
// and memory events, plus the cels times the arcs and the entities.
func NewCels(t *analysis.Tree, em *EntityMap, step CelStep, value, limit int) (*Cels, error) {
	src, steps := analysis.Steps(t.Profile)
	if src == "" {
		return nil, ErrNoTimeOrder
	}
	entries, t0, t1 := extent(steps)
	if entries == 0 {
		return nil, errors.New("the recording enters no frame: there is nothing to animate")
	}
	n, err := celCount(step, entries, t1-t0, limit)
	if err != nil {
		return nil, err
	}
	cs := &Cels{Map: em, Source: src, Unit: "nanoseconds", Cels: make([]Cel, n), Value: value,
		ValueType: t.Profile.ValueTypes[value]}
	if p := t.Profile; src == analysis.CountEvents {
		cs.Unit = p.ValueTypes[p.DefaultValue].Unit
	}
	b := celBuilder{cs: cs, em: em, p: t.Profile, byPair: map[[2]int32]int32{}}
	for k, s := range cut(steps, step, t0, n) {
		b.add(k, s)
	}
	b.finish(step, t0)
	cs.values(t)
	return cs, nil
}

// CelOfSteps returns the number of cels step cuts t's profile into, and
// its steps, each with the index of the cel NewCels puts it in: what a
// view of one cel (the calls behind an arc in it) counts from.
func CelOfSteps(t *analysis.Tree, step CelStep) (int, iter.Seq2[int, analysis.Step], error) {
	src, steps := analysis.Steps(t.Profile)
	if src == "" {
		return 0, nil, ErrNoTimeOrder
	}
	entries, t0, t1 := extent(steps)
	if entries == 0 {
		return 0, nil, errors.New("the recording enters no frame: there are no cels")
	}
	n, err := celCount(step, entries, t1-t0, math.MaxInt)
	if err != nil {
		return 0, nil, err
	}
	return n, cut(steps, step, t0, n), nil
}

// cut gives each step the index of its cel among n: by the entries before
// it, or by its time since t0.
func cut(steps iter.Seq[analysis.Step], step CelStep, t0 int64, n int) iter.Seq2[int, analysis.Step] {
	return func(yield func(int, analysis.Step) bool) {
		var entries int64
		for s := range steps {
			k := entries / max(step.Entries, 1)
			if step.Period > 0 {
				k = (s.Time - t0) / step.Period
			}
			if !yield(min(int(k), n-1), s) {
				return
			}
			if s.Stack >= 0 {
				entries += int64(s.Entered)
			}
		}
	}
}

// extent counts the entries of steps and returns the first and last times.
func extent(steps func(func(analysis.Step) bool)) (entries, t0, t1 int64) {
	first := true
	for s := range steps {
		entries += int64(s.Entered)
		if first {
			t0, first = s.Time, false
		}
		t1 = s.Time
	}
	return entries, t0, t1
}

// celCount returns the number of cels of step, or an error when it is not
// a valid step or makes more than max cels.
func celCount(step CelStep, entries, span int64, limit int) (int, error) {
	var n int64
	switch {
	case step.Entries > 0:
		n = (entries + step.Entries - 1) / step.Entries
		if n > int64(limit) {
			return 0, fmt.Errorf("step=%d cuts %d entries into %d cels, more than the limit of %d: use step=%d or more",
				step.Entries, entries, n, limit, (entries+int64(limit)-1)/int64(limit))
		}
	case step.Period > 0:
		n = span/step.Period + 1
		if n > int64(limit) {
			fit := span/int64(max(limit-1, 1)) + 1
			return 0, fmt.Errorf("step=%v cuts %v into %d cels, more than the limit of %d: use step=%v or more",
				time.Duration(step.Period), time.Duration(span), n, limit, time.Duration(fit))
		}
	default:
		return 0, errors.New("a cel step is a number of entries (step=100) or a duration (step=10ms), above 0")
	}
	return int(n), nil
}

// celBuilder fills the cels step by step.
type celBuilder struct {
	cs      *Cels
	em      *EntityMap
	p       *analysis.Profile
	byPair  map[[2]int32]int32 // arc → index into cs.Arcs
	entries int64
	seen    []bool  // per cel: it has a step
	last    []int32 // per cel: the stack of its last step
}

// add puts step s into cel k: its entries, and the arcs they make.
func (b *celBuilder) add(k int, s analysis.Step) {
	for len(b.seen) <= k {
		b.seen, b.last = append(b.seen, false), append(b.last, -1)
	}
	c := &b.cs.Cels[k]
	if !b.seen[k] {
		b.seen[k], c.Start = true, s.Time
	}
	c.End, b.last[k] = s.Time, s.Stack
	if s.Stack < 0 {
		return
	}
	st := b.p.Stacks.At(s.Stack)
	for d := len(st) - int(s.Entered); d < len(st); d++ {
		c.Entries++
		b.entries++
		if d == 0 {
			continue
		}
		from, to := b.em.Frame[st[d-1]], b.em.Frame[st[d]]
		if from != to {
			b.call(c, from, to)
		}
	}
}

// call counts one call from entity from to entity to in cel c.
func (b *celBuilder) call(c *Cel, from, to int32) {
	i, ok := b.byPair[[2]int32{from, to}]
	if !ok {
		i = int32(len(b.cs.Arcs))
		b.byPair[[2]int32{from, to}] = i
		b.cs.Arcs = append(b.cs.Arcs, Arc{From: from, To: to})
	}
	for len(c.Step) <= int(i) {
		c.Step = append(c.Step, 0)
	}
	c.Step[i]++
	b.cs.Arcs[i].Calls++
}

// finish sorts the arcs, sums the totals, sets the periods of time cels
// and the stacks.
func (b *celBuilder) finish(step CelStep, t0 int64) {
	cs := b.cs
	order := make([]Arc, len(cs.Arcs)) // sorted arcs; From/To of the original index in Calls' place
	copy(order, cs.Arcs)
	sortArcs(order, cs.Map.Names, func(a Arc) int64 { return a.Calls })
	pos := make([]int32, len(cs.Arcs)) // original index → sorted
	for j, a := range order {
		pos[b.byPair[[2]int32{a.From, a.To}]] = int32(j)
	}
	cs.Arcs = order
	total := make([]int64, len(order))
	stack := int32(-1)
	for k := range cs.Cels {
		c := &cs.Cels[k]
		inc := make([]int64, len(order))
		for i, x := range c.Step {
			inc[pos[i]] = x
			total[pos[i]] += x
		}
		c.Step, c.Total = inc, append([]int64(nil), total...)
		if step.Period > 0 {
			c.Start, c.End = t0+int64(k)*step.Period, t0+int64(k+1)*step.Period
		}
		if k < len(b.seen) && b.seen[k] {
			stack = b.last[k]
		}
		c.Stack = b.entityStack(stack)
	}
}

// entityStack returns the entities of a stack, runs of one entity merged.
func (b *celBuilder) entityStack(stack int32) []int32 {
	out := []int32{}
	if stack < 0 {
		return out
	}
	for _, f := range b.p.Stacks.At(stack) {
		if e := b.em.Frame[f]; len(out) == 0 || out[len(out)-1] != e {
			out = append(out, e)
		}
	}
	return out
}
