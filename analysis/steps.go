package analysis

import "iter"

// Step is one change of a thread's stack, in time order: after the step the
// thread's stack is Stack, and its last Entered frames were entered in the
// step. Steps are what AVID's views count calls and draw cels from.
type Step struct {
	Time    int64 // nanoseconds since Profile.Start
	Stack   int32 // a Profile.Stacks id; -1 for the empty stack
	Entered int32
	Thread  int32 // see Profile.ThreadName
}

// Steps returns where p's calls can be counted from, and its steps:
//   - CountEvents, for an evented recording: one step per entry (one frame
//     entered) and per exit (none) of p.Events;
//   - CountStackDiffs, for samples in time order: one step per sample, whose
//     stack entered the frames below its longest common prefix with the
//     previous sample of the same thread (all of them for a thread's first
//     sample). A frame that stays on the stack across samples counts as one
//     entry, however often it was called in between; a sample with an empty
//     stack leaves every frame.
//
// Otherwise the source is "" and there are no steps. Under a filter
// (Profile.Filter), an entry whose frame the filter hides or whose stack it
// drops enters nothing.
func Steps(p *Profile) (CountSource, iter.Seq[Step]) {
	switch {
	case len(p.Calls) > 0:
		return CountEvents, p.eventSteps
	case p.Timed:
		return CountStackDiffs, p.sampleSteps
	}
	return "", func(func(Step) bool) {}
}

func (p *Profile) eventSteps(yield func(Step) bool) {
	for _, e := range p.Events {
		c := &p.Calls[e.Call]
		s := Step{Time: c.Enter, Stack: c.Stack, Thread: c.thread}
		if e.Exit {
			s.Time, s.Stack = c.Exit, -1
			if c.Parent >= 0 {
				s.Stack = p.Calls[c.Parent].Stack
			}
		} else if st := p.Stacks.At(c.Stack); len(st) > 0 && st[len(st)-1] == c.Frame {
			s.Entered = 1
		}
		if s.Stack >= 0 && len(p.Stacks.At(s.Stack)) == 0 {
			s.Stack = -1
		}
		if !yield(s) {
			return
		}
	}
}

func (p *Profile) sampleSteps(yield func(Step) bool) {
	var prev []int32 // per thread id: the previous sample's stack, -1 for none
	for i := range p.Samples {
		smp := &p.Samples[i]
		for int(smp.thread) >= len(prev) {
			prev = append(prev, -1)
		}
		st := p.Stacks.At(smp.Stack)
		s := Step{Time: smp.Time, Stack: smp.Stack, Entered: int32(len(st)), Thread: smp.thread}
		if last := prev[smp.thread]; last >= 0 {
			s.Entered -= int32(commonPrefix(p.Stacks.At(last), st))
		}
		prev[smp.thread] = smp.Stack
		if len(st) == 0 {
			s.Stack = -1
		}
		if !yield(s) {
			return
		}
	}
}
