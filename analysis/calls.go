package analysis

import (
	"cmp"
	"fmt"
	"slices"
)

// Call is one call of an evented recording (Chrome trace B/E and X events,
// speedscope evented profiles): a frame entered at Enter and left at Exit on
// one thread, called from that thread's innermost open call. Loaders make
// calls with Builder.Enter and Builder.Exit; Profile.Calls holds them in
// entry order, so a call's caller comes before it.
type Call struct {
	Stack  int32 // the call path, root first, ending with the called frame: a Profile.Stacks id
	Frame  int32 // the called frame
	Parent int32 // index in Profile.Calls of the calling call; -1 at the root
	Depth  int32 // 0 at the root
	Enter  int64 // nanoseconds since Profile.Start
	Exit   int64 // nanoseconds since Profile.Start; Exit ≥ Enter
	thread int32 // as Sample.thread
}

// Event is the entry, or the exit, of Profile.Calls[Call]. Profile.Events
// holds every call's two events: each thread's in the order they happened,
// the threads merged by time (at equal times, in the order the recording
// gave them).
type Event struct {
	Call int32
	Exit bool
}

// EventTime returns the time of event e.
func (p *Profile) EventTime(e Event) int64 {
	if e.Exit {
		return p.Calls[e.Call].Exit
	}
	return p.Calls[e.Call].Enter
}

// CallThread returns the thread id of call c, for ThreadName.
func (p *Profile) CallThread(c *Call) int32 { return c.thread }

// openCalls are a thread's calls entered and not yet left, outermost first.
type openCalls struct {
	calls  []int32 // indices into Profile.Calls
	frames []int32 // their frames: the thread's current stack
	last   int64   // time of the thread's last event
}

// Enter records that thread entered frame at time t (nanoseconds since the
// profile's start), called from the thread's innermost open call. A time
// before the thread's previous event counts as that event's time, so that
// every thread's events stay in order.
func (b *Builder) Enter(thread string, frame int32, t int64) {
	if b.busy() || b.over(int64(len(b.p.Calls))+1, b.limits.Samples, callsLimit) {
		return
	}
	p, id := b.p, b.threadID(thread)
	o := b.openOf(id)
	o.last = max(t, o.last)
	o.frames = append(o.frames, frame)
	c := Call{Stack: b.Stack(o.frames), Frame: frame, Parent: -1, Depth: int32(len(o.calls)),
		Enter: o.last, Exit: o.last, thread: id}
	if len(o.calls) > 0 {
		c.Parent = o.calls[len(o.calls)-1]
	}
	i := int32(len(p.Calls))
	p.Calls = appendDoubling(p.Calls, c)
	p.Events = appendDoubling(p.Events, Event{Call: i})
	o.calls = append(o.calls, i)
}

// Exit records that the innermost open call of thread returned at t (a
// time before the thread's previous event counts as that event's time). It
// reports false, recording nothing, when the thread has no open call.
func (b *Builder) Exit(thread string, t int64) bool {
	return !b.busy() && b.exit(b.threadID(thread), t)
}

// callsLimit bounds the calls of a recording, which cost about what a
// sample does.
var callsLimit = limitName{"calls", "max-samples"}

// threadID is the id of a thread label, 0 for "".
func (b *Builder) threadID(thread string) int32 {
	if thread == "" {
		return 0
	}
	return b.thread(thread)
}

func (b *Builder) exit(thread int32, t int64) bool {
	o := b.openOf(thread)
	if len(o.calls) == 0 {
		return false
	}
	o.last = max(t, o.last)
	i := o.calls[len(o.calls)-1]
	o.calls, o.frames = o.calls[:len(o.calls)-1], o.frames[:len(o.frames)-1]
	b.p.Calls[i].Exit = o.last
	b.p.Events = appendDoubling(b.p.Events, Event{Call: i, Exit: true})
	return true
}

func (b *Builder) openOf(thread int32) *openCalls {
	for int(thread) >= len(b.open) {
		b.open = append(b.open, openCalls{})
	}
	return &b.open[thread]
}

// finishCalls closes the calls still open at each thread's last event
// (with a warning), merges the threads' events by time and numbers the
// calls in entry order.
func (b *Builder) finishCalls() {
	p, open := b.p, 0
	for th := range b.open {
		o := &b.open[th]
		open += len(o.calls)
		for len(o.calls) > 0 {
			b.exit(int32(th), o.last)
		}
	}
	if open > 0 {
		b.Warn(fmt.Sprintf("%d calls were still open at the end of the recording; they end at their thread's last event", open))
	}
	b.open = nil
	byTime := func(x, y Event) int { return cmp.Compare(p.EventTime(x), p.EventTime(y)) }
	if !slices.IsSortedFunc(p.Events, byTime) {
		slices.SortStableFunc(p.Events, byTime)
	}
	p.renumberCalls()
}

// renumberCalls puts p.Calls in the order of their entry events.
func (p *Profile) renumberCalls() {
	pos := make([]int32, len(p.Calls)) // old index → new
	next, moved := int32(0), false
	for _, e := range p.Events {
		if !e.Exit {
			pos[e.Call] = next
			moved = moved || e.Call != next
			next++
		}
	}
	if !moved {
		return
	}
	calls := make([]Call, len(p.Calls))
	for i, c := range p.Calls {
		if c.Parent >= 0 {
			c.Parent = pos[c.Parent]
		}
		calls[pos[i]] = c
	}
	for i := range p.Events {
		p.Events[i].Call = pos[p.Events[i].Call]
	}
	p.Calls = calls
}
