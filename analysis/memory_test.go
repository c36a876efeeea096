package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// memoryString writes memory events as time:stack-leaf:class:count, "+"
// for an allocation and "-" for a free.
func memoryString(p *Profile, ms []Memory) string {
	var out []string
	for _, m := range ms {
		leaf, class := "none", "none"
		if m.Stack >= 0 {
			if st := p.Stacks.At(m.Stack); len(st) > 0 {
				leaf = p.Frames[st[len(st)-1]].Name
			}
		}
		if m.Class >= 0 {
			class = p.Frames[m.Class].Name
		}
		sign := "+"
		if m.Free {
			sign = "-"
		}
		out = append(out, fmt.Sprintf("%d:%s:%s:%s%d", m.Time, leaf, class, sign, m.Count))
	}
	return strings.Join(out, " ")
}

// Memory events made inside calls get the stack of the innermost call open
// at their time, on their own thread, after the entries and exits at that
// time; they come out in time order whatever order they were added in.
func TestMemoryAtCall(t *testing.T) {
	b := NewBuilder("test", ValueType{Type: "wall", Unit: "nanoseconds"})
	f, g, h := b.Frame(Frame{Name: "f"}), b.Frame(Frame{Name: "g"}), b.Frame(Frame{Name: "h"})
	str := b.Frame(Frame{Name: "java.lang.String"})
	b.Enter("a", f, 0)
	b.Enter("a", g, 10)
	b.Exit("a", 20)
	b.Exit("a", 30)
	b.Enter("b", h, 5)
	b.Exit("b", 25)
	for _, m := range []struct {
		t      int64
		thread string
		free   bool
	}{{15, "a", false}, {2, "a", false}, {10, "a", true}, {20, "a", false}, {30, "a", false}, {12, "b", false}, {40, "b", true}, {1, "c", false}} {
		b.Memory(Memory{Time: m.t, Stack: StackAtCall, Class: str, Count: 1, Free: m.free}, m.thread)
	}
	p := b.Finish()
	want := "1:none:java.lang.String:+1 2:f:java.lang.String:+1 10:g:java.lang.String:-1 12:h:java.lang.String:+1 " +
		"15:g:java.lang.String:+1 20:f:java.lang.String:+1 30:none:java.lang.String:+1 40:none:java.lang.String:-1"
	if got := memoryString(p, p.Memory); got != want {
		t.Errorf("memory events:\n got %s\nwant %s", got, want)
	}
	if got := p.ThreadName(p.Memory[1].Thread); got != "a" {
		t.Errorf("thread of the event at 2 = %q, want a", got)
	}
}

// A series of heap profiles gives, per stack, the objects allocated
// between two profiles and those freed (allocated less the growth in use).
func TestHeapDeltas(t *testing.T) {
	vts := []ValueType{{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"}, {"inuse_space", "bytes"}}
	profile := func(at int64, rows map[string][2]int64) *Profile {
		b := NewBuilder("pprof", vts...)
		for _, leaf := range []string{"x", "y"} {
			if r, ok := rows[leaf]; ok {
				st := b.Stack([]int32{b.Frame(Frame{Name: "main"}), b.Frame(Frame{Name: leaf})})
				b.Add(st, []int64{r[0], 8 * r[0], r[1], 8 * r[1]}, 0, false, "", nil)
			}
		}
		p := b.Finish()
		p.Source = fmt.Sprintf("heap-%d", at)
		p.Start = time.Unix(1e9+at, 0)
		return p
	}
	parts := []*Profile{
		profile(0, map[string][2]int64{"x": {10, 10}}),
		profile(3, map[string][2]int64{"x": {15, 12}, "y": {4, 4}}), // x: +5 allocated, 3 freed; y: +4
		profile(6, map[string][2]int64{"x": {15, 2}, "y": {9, 1}}),  // x: 10 freed; y: +5, 8 freed
	}
	p, err := Series("heap", parts)
	if err != nil {
		t.Fatal(err)
	}
	src, ms := MemoryEvents(p)
	want := "3000000000:x:none:+5 3000000000:x:none:-3 3000000000:y:none:+4 6000000000:x:none:-10 6000000000:y:none:+5 6000000000:y:none:-8"
	if got := memoryString(p, ms); src != MemoryHeapDeltas || got != want {
		t.Errorf("MemoryEvents(series) = %s, %s; want %s, %s", src, got, MemoryHeapDeltas, want)
	}
	if src, ms := MemoryEvents(parts[0]); src != "" || ms != nil {
		t.Errorf("MemoryEvents(one heap profile) = %q, %d events; want none", src, len(ms))
	}
}

// At keeps memory events' classes and calls' frames naming what they named
// when frames of one function at different lines merge.
func TestMemoryAndCallsAt(t *testing.T) {
	b := NewBuilder("test", ValueType{Type: "wall", Unit: "nanoseconds"})
	f1, f2 := b.Frame(Frame{Name: "f", Line: 1}), b.Frame(Frame{Name: "f", Line: 2})
	g, str := b.Frame(Frame{Name: "g"}), b.Frame(Frame{Name: "java.lang.String"})
	b.Enter("a", f1, 0)
	b.Enter("a", f2, 5)
	b.Enter("a", g, 10)
	b.Memory(Memory{Time: 12, Stack: StackAtCall, Class: str, Count: 1}, "a")
	b.Exit("a", 20)
	b.Exit("a", 25)
	b.Exit("a", 30)
	p := b.Finish().At(Functions)
	if len(p.Frames) != 3 {
		t.Fatalf("%d frames at functions, want 3 (f, g, java.lang.String)", len(p.Frames))
	}
	if got, want := memoryString(p, p.Memory), "12:g:java.lang.String:+1"; got != want {
		t.Errorf("memory events at functions: got %s, want %s", got, want)
	}
	var called []string
	for _, c := range p.Calls {
		called = append(called, p.Frames[c.Frame].Name)
	}
	if got, want := strings.Join(called, " "), "f f g"; got != want {
		t.Errorf("calls at functions: got %s, want %s", got, want)
	}
}
