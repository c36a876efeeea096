package compaction

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// TestRecompactEqualsCompact: the view Step builds by recomputing only what
// a step can change is identical, field by field, to the view computed from
// scratch for the new state — on random trees with arbitrary levels, random
// targets, expand and compact.
func TestRecompactEqualsCompact(t *testing.T) {
	t.Run("spliced", testRecompact)
	t.Run("chains", testSteps)
}

// testSteps: chains of 30 steps by Step, each equal to the view computed
// from scratch, with ids 0..After-1 (checkInvariants). A step that drops
// more nodes than it makes moves nodes into the ids left over.
func testSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	steps, moved := 0, 0
	for i := 0; i < 300; i++ {
		tr, _ := build(randomSpecs(r, 40, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for step := 0; step < 30; step++ {
			pre := v.Preorder()
			target := pre[r.IntN(len(pre))]
			delta := []int{-1, 1}[r.IntN(2)]
			ns, nv, err := Step(v, target, delta)
			if err != nil {
				if v.Check() == nil {
					checkRefusal(t, v, target, delta, err)
				}
				continue
			}
			steps++
			if movedNodes(v, nv) {
				moved++
			}
			if err := sameView(nv, Compact(tr, ns, 0)); err != nil {
				t.Fatalf("case %d, step %d on %s: %v", i, step, v.Path(target), err)
			}
			checkInvariants(t, nv)
			if t.Failed() {
				t.FailNow()
			}
			v = nv
		}
	}
	t.Logf("%d steps, %d moved nodes to close holes", steps, moved)
	if moved < 100 {
		t.Errorf("only %d of %d steps moved nodes to close holes", moved, steps)
	}
}

// movedNodes reports whether some node of v is in nv under another id.
func movedNodes(v, nv *View) bool {
	for i, nd := range v.Nodes {
		if int(i) >= len(nv.Nodes) || nv.Nodes[i] != nd {
			for _, m := range nd.Members {
				if j := nv.NodeOf(m); j != int32(i) && slices.Equal(nv.Nodes[j].Members, nd.Members) {
					return true
				}
			}
		}
	}
	return false
}

// isPreorderNumbered reports whether v's ids are its pre-order positions,
// with no dropped ids: how Compact numbers a view.
func isPreorderNumbered(v *View) bool {
	for k, i := range v.Preorder() {
		if int32(k) != i {
			return false
		}
	}
	return len(v.Nodes) == v.After
}

func testRecompact(t *testing.T) {
	spliced, fallback, chained, moved := 0, 0, 0, 0
	stepChains(rand.New(rand.NewPCG(9, 9)), 5000, 16, func(i, step int, v *View, ns *State, target int32) *View {
		levels, text := v.state.Levels(), dump(v)
		got, _, _ := recompact(context.Background(), v, ns, target)
		// Views and states share pages and nodes: the step must not
		// have changed the view it started from.
		if !slices.Equal(v.state.Levels(), levels) || dump(v) != text {
			t.Fatalf("case %d, step %d: the step changed the view before it", i, step)
		}
		checkInvariants(t, v)
		if got == nil {
			fallback++
			return nil
		}
		spliced++
		if movedNodes(v, got) {
			moved++
		}
		if step > 0 {
			chained++
		}
		if err := sameView(got, Compact(v.Tree, ns, 0)); err != nil {
			t.Fatalf("case %d, step %d on %s: %v\nbefore:\n%s\nspliced:\n%s", i, step, v.Path(target), err, dump(v), dump(got))
		}
		checkInvariants(t, got)
		if t.Failed() {
			t.Fatalf("case %d, step %d", i, step)
		}
		return got
	})
	t.Logf("%d spliced (%d after another splice, %d moved nodes to close holes), %d fell back to a full recompute", spliced, chained, moved, fallback)
	if spliced < 2000 || chained < 1000 || moved < 100 {
		t.Errorf("only %d steps were spliced, %d of them chained, %d moved nodes", spliced, chained, moved)
	}
}

// stepChains makes cases random trees of up to size nodes with arbitrary
// levels, and on each a chain of up to 4 steps on random targets: a step
// that changes some level is handed to step, with the view it starts from
// and the new state, and the chain goes on from the view step returns (nil
// ends it). The views after the first are a step's, whose ids are no
// longer in pre-order and some of them dropped.
func stepChains(r *rand.Rand, cases, size int, step func(i, k int, v *View, ns *State, target int32) *View) {
	for i := 0; i < cases; i++ {
		tr, _ := build(randomSpecs(r, size, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for k := 0; k < 4 && v != nil; k++ {
			pre := v.Preorder()
			target := pre[r.IntN(len(pre))]
			ns, changed := stepLevels(tr, v.state, v, target, []int{-1, 1}[r.IntN(2)])
			if changed {
				v = step(i, k, v, ns, target)
			}
		}
	}
}

// sameView compares two views node by node in pre-order, ids aside: a
// step keeps the ids of the nodes it does not change, so its view numbers
// nodes differently from a fresh Compact.
func sameView(got, want *View) error {
	if got.After != want.After || got.Before != want.Before || len(got.Roots) != len(want.Roots) {
		return fmt.Errorf("%d → %d nodes, %d roots; want %d → %d, %d", got.Before, got.After, len(got.Roots), want.Before, want.After, len(want.Roots))
	}
	gp, wp := got.Preorder(), want.Preorder()
	if len(gp) != len(wp) {
		return fmt.Errorf("%d nodes in pre-order, want %d", len(gp), len(wp))
	}
	pos := func(v *View, pre []int32) []int32 { // id -> pre-order position
		at := make([]int32, len(v.Nodes))
		for k := range at {
			at[k] = -1
		}
		for k, i := range pre {
			at[i] = int32(k)
		}
		return at
	}
	gat, wat := pos(got, gp), pos(want, wp)
	place := func(at []int32, ids []int32) []int32 {
		out := make([]int32, len(ids))
		for k, i := range ids {
			out[k] = at[i]
		}
		return out
	}
	up := func(at []int32, p int32) int32 {
		if p < 0 {
			return -1
		}
		return at[p]
	}
	for k := range wp {
		g, w := got.Nodes[gp[k]], want.Nodes[wp[k]]
		if g.Name != w.Name || got.Handle(gp[k]) != want.Handle(wp[k]) || up(gat, got.Parent(gp[k])) != up(wat, want.Parent(wp[k])) ||
			got.Depth(gp[k]) != want.Depth(wp[k]) || g.Total != w.Total || g.Self != w.Self ||
			!slices.Equal(place(gat, g.Children), place(wat, w.Children)) ||
			!slices.Equal(g.Members, w.Members) {
			return fmt.Errorf("node %d in pre-order = %+v, want %+v", k, g, w)
		}
		if g.name != w.name || g.hash != w.hash || !slices.Equal(sorted(g.seeds), sorted(w.seeds)) {
			return fmt.Errorf("node %d in pre-order: name/hash/seeds differ", k)
		}
	}
	if !slices.Equal(place(gat, got.Roots), place(wat, want.Roots)) || !slices.Equal(got.sorted, want.sorted) {
		return fmt.Errorf("roots %v, want %v (or the hash order)", place(gat, got.Roots), place(wat, want.Roots))
	}
	for i, nd := range got.Nodes {
		if gat[i] < 0 {
			return fmt.Errorf("node id %d (%s) is not in pre-order", i, nd.Name)
		}
	}
	return nil
}

func sorted(s []int32) []int32 { return slices.Sorted(slices.Values(s)) }

// TestStepFullNameNotCoarser: expanding a node whose own name is already
// full leaves its name and seeds as they were, but its members grow finer.
// R2 concerns only names that compaction shortened: the node is
// the function a, whose name a.X.f starts with, so the step is taken and a
// absorbs a.X.f by the group rule, as Compact of the new state does.
func TestStepFullNameNotCoarser(t *testing.T) {
	tr, _ := build([]spec{{-1, "a", 1}, {0, "a.X.f", 1}})
	v := Compact(tr, NewState(tr, 1), 0)
	_, v, err := Step(v, 0, +1)
	if err != nil {
		t.Fatalf("first expand: %v", err)
	}
	if got := figure(v); got != "a [2]" {
		t.Fatalf("after one expand: %s, want a [2]", got)
	}
	ns, v, err := Step(v, v.Roots[0], +1)
	if err != nil {
		t.Fatalf("second expand: %v", err)
	}
	if err := sameView(v, Compact(tr, ns, 0)); err != nil || figure(v) != "a [2]" || v.Check() != nil {
		t.Errorf("second expand: %s (%v, check %v), want a [2] as Compact makes it", figure(v), err, v.Check())
	}
}

// FuzzResolve: any TARGET text gives an error or a valid node (or -1 for
// all), never a panic; a node's own handle and path resolve to it.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"all", "lib1 > lib2", "a5d1", ">", " > > ", "lib1>lib2>lib3", "", "a5"} {
		f.Add(s)
	}
	tr := toy(f)
	s, _, _ := NewState(tr, 99).SetLevel(tr, 1, regexp.MustCompile(`^lib2\.`))
	v := Compact(tr, s, 0)
	f.Fuzz(func(t *testing.T, target string) {
		i, err := v.Resolve(target)
		if err != nil {
			return
		}
		if i != -1 && !v.Has(i) {
			t.Fatalf("Resolve(%q) = %d, out of range", target, i)
		}
		if i >= 0 {
			if j, _ := v.Resolve(v.Handle(i)); j != i {
				t.Errorf("handle %s resolves to %d, want %d", v.Handle(i), j, i)
			}
			if j, _ := v.Resolve(v.Path(i)); j != i {
				t.Errorf("path %s resolves to %d, want %d", v.Path(i), j, i)
			}
		}
	})
}
