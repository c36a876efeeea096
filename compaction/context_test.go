package compaction

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// countingContext is a context whose Err reports Canceled from its n-th
// call on, and counts the calls: an interrupt at a fixed look.
type countingContext struct {
	context.Context
	n     int64
	calls atomic.Int64
}

func (c *countingContext) Err() error {
	if c.calls.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

// wideTree has 1 + 100 + 100,000 call-tree nodes: main.run calls lib.p0.f
// to lib.p99.f, and each of those calls a thousand functions of lib.
func wideTree() *analysis.Tree {
	b := analysis.NewBuilder("wide", analysis.ValueType{Type: "samples", Unit: "count"})
	run := b.Frame(analysis.Frame{Name: "main.run"})
	for p := range 100 {
		f := b.Frame(analysis.Frame{Name: fmt.Sprintf("lib.p%d.f", p)})
		for g := range 1000 {
			leaf := b.Frame(analysis.Frame{Name: fmt.Sprintf("lib.q%d.g%d", g%10, g)})
			b.Add(b.Stack([]int32{run, f, leaf}), []int64{int64(1 + g%7)}, 0, false, "", nil)
		}
	}
	return analysis.NewTree(b.Finish())
}

// TestCompactContext checks that the compaction looks at its context once
// every checkEvery members taken and nodes made, and, the first time a
// state of the tree is compacted, every checkEvery paths hashed; that it
// gives up with the context's error at each look, leaving the state as it
// was, and otherwise gives Compact's view; and that StepContext and Fit
// give up too.
func TestCompactContext(t *testing.T) {
	tr := wideTree()
	var v *View
	for _, level := range []int{2, 99} { // 101 and 100,101 compacted nodes
		never := &countingContext{Context: context.Background(), n: 1 << 62}
		s := NewState(tr, level)
		var err error
		if v, err = CompactContext(never, tr, s, 0); err != nil {
			t.Fatal(err)
		}
		hashes, rest := int64(tr.Len()/checkEvery), int64(tr.Len()/checkEvery+v.After/checkEvery)
		if never.calls.Load() != hashes+rest {
			t.Errorf("level %d: %d looks at the context for %d members and %d nodes, want %d (one every %d of each, and of the paths hashed)",
				level, never.calls.Load(), tr.Len(), v.After, hashes+rest, checkEvery)
		}
		again := &countingContext{Context: context.Background(), n: 1 << 62}
		if _, err := CompactContext(again, tr, s, 0); err != nil || again.calls.Load() != rest {
			t.Errorf("level %d compacted again: %d looks (%v), want %d: the paths are hashed once", level, again.calls.Load(), err, rest)
		}
		if want := Compact(tr, s, 0); figure(v) != figure(want) {
			t.Errorf("CompactContext gave another view than Compact:\n%s\n%s", figure(v), figure(want))
		}
		for n := int64(1); n <= hashes+rest; n++ {
			fresh := NewState(tr, level)
			v, err := CompactContext(&countingContext{Context: context.Background(), n: n}, tr, fresh, 0)
			if !errors.Is(err, context.Canceled) || v != nil || (n <= hashes) != (fresh.ix == nil) {
				t.Errorf("level %d interrupted at look %d: %v, %v, names interned %v; want no view, context.Canceled, and the names interned only past look %d",
					level, n, v, err, fresh.ix != nil, hashes)
			}
		}
	}
	v = Compact(tr, NewState(tr, 2), 0)
	stop := &countingContext{Context: context.Background(), n: 1}
	if _, _, err := StepContext(stop, v, -1, -1); !errors.Is(err, context.Canceled) {
		t.Errorf("StepContext(compact all) interrupted: %v, want context.Canceled", err)
	}
	coarse := Compact(tr, NewState(tr, 1), 0)
	lib := coarse.Nodes[coarse.Roots[0]].Children[0] // every node but the root: expanding it regroups them
	if _, _, err := StepContext(&countingContext{Context: context.Background(), n: 1}, coarse, lib, +1); !errors.Is(err, context.Canceled) {
		t.Errorf("StepContext(expand %s) interrupted: %v, want context.Canceled", coarse.Nodes[lib].Name, err)
	}
	if _, err := Fit(&countingContext{Context: context.Background(), n: 1}, v, 50, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit interrupted: %v, want context.Canceled", err)
	}
}
