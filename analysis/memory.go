package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// Memory is one memory event of a recording: objects of one class
// allocated, or freed, by a thread at a time, with the stack that did it.
// Profile.Memory holds a recording's memory events in time order, beside
// its samples and calls; a loader adds them with Builder.Memory.
//
// The class is a frame: a frame named by the class ("java.lang.String")
// that no stack need hold, so that a mapping's patterns and the name
// splitting apply to classes as they do to methods. A recording that names
// no class (a Go heap profile) leaves Class at -1, and the allocating frame,
// the stack's leaf, stands for it.
type Memory struct {
	Time   int64 // nanoseconds since Profile.Start
	Stack  int32 // a Profile.Stacks id: the stack that allocated, or freed; -1 when unknown
	Class  int32 // a Profile.Frames id naming the objects' class; -1 when the recording names none
	Count  int64 // objects: 1 for an event per object, more for a heap profile's delta
	Bytes  int64 // 0 when unknown
	Free   bool  // a deallocation; else an allocation
	Thread int32 // see Profile.ThreadName; 0 when unknown
}

// MemorySource says where a profile's memory events come from, and so how
// exact their counts are.
type MemorySource string

// The memory sources, from the most exact to the least.
const (
	// MemoryTraced: every allocation and deallocation was recorded (a
	// Chrome trace's object events).
	MemoryTraced MemorySource = "traced"
	// MemorySampled: the recorder sampled allocations (JFR's allocation
	// events: one per new TLAB, per allocation outside a TLAB, or per
	// sample), or a sampling thinned them (M-1, M-2), so the counts are of
	// events, fewer than the objects.
	MemorySampled MemorySource = "sampled"
	// MemoryHeapDeltas: differences of consecutive heap profiles of a
	// series, per stack: estimated (heap profiles sample allocations and
	// scale them up), at the time of the later profile.
	MemoryHeapDeltas MemorySource = "heap-deltas"
)

// StackAtCall is the stack to give Builder.Memory for an event made inside
// a recording's calls: the event then gets the stack of its thread's
// innermost call open at its time, after the entries and exits made up to
// and at that time.
const StackAtCall int32 = -2

// Memory adds a memory event of thread. A Stack of StackAtCall is resolved
// by Finish from the recording's calls.
func (b *Builder) Memory(m Memory, thread string) {
	if b.busy() || b.over(int64(len(b.p.Memory))+1, b.limits.Samples, memoryLimit) {
		return
	}
	m.Thread = b.threadID(thread)
	b.p.Memory = appendDoubling(b.p.Memory, m)
}

// memoryLimit bounds the memory events of a recording, which cost about
// what a sample does.
var memoryLimit = limitName{"memory events", "max-samples"}

// finishMemory puts the memory events in time order and resolves the
// stacks given as StackAtCall.
func (b *Builder) finishMemory() {
	p := b.p
	if len(p.Memory) == 0 {
		return
	}
	slices.SortStableFunc(p.Memory, func(x, y Memory) int { return cmp.Compare(x.Time, y.Time) })
	cur := map[int32]int32{} // per thread: its stack after the events so far
	next := 0
	for i := range p.Memory {
		m := &p.Memory[i]
		if m.Stack != StackAtCall {
			continue
		}
		for ; next < len(p.Events) && p.EventTime(p.Events[next]) <= m.Time; next++ {
			c := &p.Calls[p.Events[next].Call]
			s := c.Stack
			if p.Events[next].Exit {
				s = -1
				if c.Parent >= 0 {
					s = p.Calls[c.Parent].Stack
				}
			}
			cur[c.thread] = s
		}
		m.Stack = -1
		if s, ok := cur[m.Thread]; ok {
			m.Stack = s
		}
	}
}

// MemoryEvents returns p's memory events and where they come from: the
// events the recording holds (Profile.Memory, Profile.MemorySource), else,
// for a series of heap profiles with an alloc_objects value, the
// differences of consecutive profiles (MemoryHeapDeltas); else none.
func MemoryEvents(p *Profile) (MemorySource, []Memory) {
	if len(p.Memory) > 0 {
		return p.MemorySource, p.Memory
	}
	if d := heapDeltas(p); len(d) > 0 {
		return MemoryHeapDeltas, d
	}
	return "", nil
}

// heapDeltas returns, for a series of heap profiles, the objects each
// stack allocated between two consecutive profiles (alloc_objects) and
// those it freed (the allocations less the growth of inuse_objects, when
// the profiles have it), as memory events at the later profile's time.
// The first profile is the baseline; a stack whose count went down (a
// restarted program) makes no event.
func heapDeltas(p *Profile) []Memory {
	alloc, inuse := p.ValueIndex("alloc_objects"), p.ValueIndex("inuse_objects")
	if len(p.Intervals) < 3 || alloc < 0 {
		return nil
	}
	type counts struct{ alloc, inuse int64 }
	sums := func(i int) map[int32]counts {
		m := map[int32]counts{}
		for s := p.Intervals[i]; s < p.Intervals[i+1]; s++ {
			smp := &p.Samples[s]
			c := m[smp.Stack]
			c.alloc += p.Value(smp, alloc)
			if inuse >= 0 {
				c.inuse += p.Value(smp, inuse)
			}
			m[smp.Stack] = c
		}
		return m
	}
	var out []Memory
	prev := sums(0)
	for i := 1; i+1 < len(p.Intervals); i++ {
		cur := sums(i)
		at := int64(0)
		if p.Intervals[i] < p.Intervals[i+1] {
			at = p.Samples[p.Intervals[i]].Time
		}
		for _, st := range slices.Sorted(maps.Keys(cur)) {
			c, b := cur[st], prev[st]
			da := c.alloc - b.alloc
			if da < 0 {
				continue
			}
			if da > 0 {
				out = append(out, Memory{Time: at, Stack: st, Class: -1, Count: da})
			}
			if freed := da - (c.inuse - b.inuse); inuse >= 0 && freed > 0 {
				out = append(out, Memory{Time: at, Stack: st, Class: -1, Count: freed, Free: true})
			}
		}
		prev = cur
	}
	return out
}

// memorySources say, for info, what each source's counts are.
var memorySources = map[MemorySource]string{
	MemoryTraced:     "every allocation and deallocation recorded",
	MemorySampled:    "a sample of the allocations (by the recorder, or by M-1 or M-2): fewer events than objects",
	MemoryHeapDeltas: "differences of consecutive heap profiles, estimated; the first profile is the baseline",
}

// memoryInfo says how many allocations and deallocations p records, and
// from where; "" when it has none.
func memoryInfo(p *Profile) string {
	src, ms := MemoryEvents(p)
	if len(ms) == 0 {
		return ""
	}
	var alloc, free int64
	for _, m := range ms {
		if m.Free {
			free += m.Count
		} else {
			alloc += m.Count
		}
	}
	return fmt.Sprintf("%d events: %d objects allocated, %d freed (%s: %s)", len(ms), alloc, free, src, memorySources[src])
}
