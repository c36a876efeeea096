// Package analysistest builds small profiles by hand for the tests of
// analysis and of the stages that read it (avid, blueprint): evented
// recordings written as strings of entries and exits, and the samples a
// span loader would make of them. Tests alone import it, as net/http's
// tests import httptest.
package analysistest

import (
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Recording is a hand-built evented recording of one thread: in Ops, "+name"
// enters a frame and "-" leaves the innermost one, "*Class" allocates an
// object of Class on the current stack and "~Class" frees one (memory
// events), one event per time unit from Start.
type Recording struct {
	Thread string
	Start  int64
	Ops    string
}

// Build returns the evented profile of recs. The time between two events
// goes to a sample of the stack open in it, as the span loaders do.
func Build(recs ...Recording) *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	for _, r := range recs {
		t := r.Start
		var stack []int32
		for _, op := range strings.Fields(r.Ops) {
			if len(stack) > 0 {
				b.Add(b.Stack(stack), []int64{1}, t-1, true, r.Thread, nil)
			}
			switch op[0] {
			case '-':
				b.Exit(r.Thread, t)
				stack = stack[:len(stack)-1]
			case '*', '~':
				at := int32(-1)
				if len(stack) > 0 {
					at = b.Stack(stack)
				}
				class := b.Frame(analysis.Frame{Name: op[1:]})
				b.Memory(analysis.Memory{Time: t, Stack: at, Class: class, Count: 1, Free: op[0] == '~'}, r.Thread)
				b.Profile().MemorySource = analysis.MemoryTraced
			default:
				f := b.Frame(analysis.Frame{Name: op[1:]})
				b.Enter(r.Thread, f, t)
				stack = append(stack, f)
			}
			t++
		}
	}
	return b.Finish()
}

// Samples turns p's events into samples, as the span loaders do: per
// thread, the stack open between two events, at the first one's time. The
// result has samples in time order and no events.
func Samples(p *analysis.Profile) *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	for _, f := range p.Frames {
		b.Frame(f)
	}
	_, steps := analysis.Steps(p)
	type open struct {
		stack int32
		at    int64
	}
	type sample struct {
		open
		thread int32
		w      int64
	}
	var out []sample
	last := map[int32]open{}
	for s := range steps {
		if o, ok := last[s.Thread]; ok && o.stack >= 0 && s.Time > o.at {
			out = append(out, sample{o, s.Thread, s.Time - o.at})
		}
		last[s.Thread] = open{s.Stack, s.Time}
	}
	slices.SortStableFunc(out, func(x, y sample) int { return int(x.at - y.at) })
	for _, s := range out {
		b.Add(b.Stack(p.Stacks.At(s.stack)), []int64{s.w}, s.at, true, p.ThreadName(s.thread), nil)
	}
	return b.Finish()
}
