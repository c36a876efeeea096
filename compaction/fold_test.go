package compaction

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFoldProperties: on random trees, levels and budgets, Fold shows at
// most n nodes; it keeps every weight (each call-tree node in exactly one
// node, each node's total its children's plus its self, the roots' totals
// those of the view it folds); the nodes it shows are the view's, with
// their totals, under their own parents; a fold node is a leaf, one per
// parent at most, holding at least two nodes or a subtree, its name its
// only element; it breaks R1 and R2 nowhere when the view keeps them; and
// it is greedy-maximal: no folded node whose parent is shown could be
// shown within n nodes.
func TestFoldProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for c := 0; c < 500; c++ {
		tr := randomTwoValues(r, 60)
		value := r.IntN(2)
		v := Compact(tr, randomLevels(r, tr), value)
		n := 1 + r.IntN(v.After+2)
		f := Fold(v, n)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("case %d, nodes=%d of %d: "+format+"\n%s\n%s", append(append([]any{c, n, v.After}, args...), figure(v), figure(f))...)
		}
		if f.After > n || f.After != len(f.Nodes) || v.After <= n && f != v {
			fail("%d nodes", f.After)
		}
		var sumV, sumF int64
		for _, x := range v.Roots {
			sumV += v.Nodes[x].Total
		}
		for _, x := range f.Roots {
			sumF += f.Nodes[x].Total
		}
		if sumV != sumF {
			fail("roots total %d, want %d", sumF, sumV)
		}
		seen := make([]int, tr.Len())
		for i, nd := range f.Nodes {
			kids := int64(0)
			for _, k := range nd.Children {
				kids += f.Nodes[k].Total
				if f.Parent(k) != int32(i) {
					fail("node %d's child %d has parent %d", i, k, f.Parent(k))
				}
			}
			if nd.Total != kids+nd.Self {
				fail("%s: total %d, children %d + self %d", nd.Name, nd.Total, kids, nd.Self)
			}
			for _, m := range nd.Members {
				seen[m]++
				if f.NodeOf(m) != int32(i) {
					fail("member %d of %s is in node %d", m, nd.Name, f.NodeOf(m))
				}
			}
			if f == v {
				continue
			}
			if o := f.orig[i]; o >= 0 {
				w := v.Nodes[o]
				if w.Name != nd.Name || w.Total != nd.Total || !slices.Equal(w.Members, nd.Members) ||
					f.Parent(int32(i)) >= 0 && f.orig[f.Parent(int32(i))] != v.Parent(o) || f.Parent(int32(i)) < 0 && v.Parent(o) >= 0 {
					fail("%s is not the view's node %d in its place", nd.Name, o)
				}
				continue
			}
			if len(nd.Children) > 0 || nd.Folded < 1 || !strings.HasPrefix(nd.Name, "other (") {
				fail("fold node %s: %d children, %d folded", nd.Name, len(nd.Children), nd.Folded)
			}
			if e := f.Elements(int32(i)); !slices.Equal(e, []string{nd.Name}) {
				fail("fold node %s: elements %q", nd.Name, e)
			}
			if nd.Folded == 1 && len(nd.Members) > 0 && len(v.Nodes[v.NodeOf(nd.Members[0])].Children) == 0 {
				fail("%s folds one leaf", nd.Name)
			}
		}
		for m, k := range seen {
			if k != 1 {
				fail("call-tree node %d in %d nodes", m, k)
			}
		}
		if x := f.Check(); x != nil && v.Check() == nil {
			fail("the folded view breaks %s at %s, the view does not", x.Rule, f.Nodes[x.Node].Name)
		}
		if f != v {
			checkGreedy(t, c, v, f, n)
		}
	}
}

// checkGreedy fails when a node of v that f folds, whose parent f shows,
// could be shown within n: one node more, one more fold for its
// children, one fold less when it is its fold's only node.
func checkGreedy(t *testing.T, c int, v, f *View, n int) {
	t.Helper()
	shownAs := map[int32]int32{}
	for i, o := range f.orig {
		if o >= 0 {
			shownAs[o] = int32(i)
		}
	}
	for o := range v.Nodes {
		x := int32(o)
		if _, ok := shownAs[x]; ok {
			continue
		}
		p, parentShown := v.Parent(x), true
		if p >= 0 {
			_, parentShown = shownAs[p]
		}
		if !parentShown {
			continue
		}
		fold := f.NodeOf(v.Nodes[x].Members[0])
		cost := 1
		if f.Nodes[fold].Folded == subtreeSize(v, x) {
			cost-- // its fold's only node
		}
		if len(v.Nodes[x].Children) > 0 {
			cost++
		}
		if f.After+cost <= n {
			t.Fatalf("case %d: nodes=%d: %s (total %d) could be shown at a cost of %d (%d nodes shown)\n%s",
				c, n, v.Nodes[x].Name, v.Nodes[x].Total, cost, f.After, figure(f))
		}
	}
}

func subtreeSize(v *View, i int32) int {
	n := 0
	v.walk(i, func(int32) { n++ })
	return n
}

// TestFoldExample: the ProfVis toy at full names (11 nodes) in 6 nodes:
// the heaviest path stays, the lighter branches fold, with their weight.
func TestFoldExample(t *testing.T) {
	tr := toy(t)
	v := Compact(tr, NewState(tr, 9), 0)
	f := Fold(v, 6)
	want := "lib1.Whale.breath [6] → lib1.Mammal.inhale [6] → lib2.Lung.inhale [6] → {lib2.Muscle.contract [4] → other (4 nodes) [4], other (3 nodes) [2]}"
	if got := figure(f); got != want {
		t.Errorf("Fold(toy at full names, 6) =\n%s\nwant\n%s", got, want)
	}
	var fold, lung int32 = -1, -1
	for i, nd := range f.Nodes {
		switch {
		case nd.Name == "other (3 nodes)":
			fold = int32(i)
		case nd.Name == "lib2.Lung.inhale":
			lung = int32(i)
		}
	}
	if _, _, err := Step(f, fold, -1); err == nil || !strings.Contains(err.Error(), "holds 3 lighter nodes folded together") {
		t.Errorf("compact %s: error %v, want a refusal saying what it holds", f.Nodes[fold].Name, err)
	}
	_, nv, err := Step(f, lung, -1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := figure(nv), "lib1.Whale.breath [6] → lib1.Mammal.inhale [6] → lib2.Lung [6] → {lib2.Muscle.contract [4] → "+
		"{lib2.Nerve.transmit [3] → lib3.Signal.travel [3], lib3.Pressure.foo [1] → lib3.Blood.flow [1]}, lib2.Muscle.stop [2] → "+
		"lib2.Nerve.transmit [2] → lib3.Signal.travel [2]}"; got != want {
		t.Errorf("compact lib2.Lung.inhale in the folded view = \n%s\nwant the whole view stepped:\n%s", got, want)
	}
}

// TestFoldByAbsoluteWeight: in a difference, where weights are negative
// where a profile shrank, the region that changed most is shown first,
// whatever its sign: main's children −9 and +4 with budget 3 show −9.
func TestFoldByAbsoluteWeight(t *testing.T) {
	tr, _ := build([]spec{{-1, "main.M.run", 0}, {0, "shrank.A.f", -9}, {0, "grew.B.g", 4}, {0, "grew.C.h", 1}})
	v := Compact(tr, NewState(tr, 9), 0)
	if got, want := figure(Fold(v, 3)), "main.M.run [-4] → {other (2 nodes) [5], shrank.A.f [-9]}"; got != want {
		t.Errorf("Fold(difference, 3) = %s, want %s", got, want)
	}
}

// TestFoldHandles: every node of a folded view, fold nodes included, has
// a handle that resolves to it, and a path of names that does.
func TestFoldHandles(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for c := 0; c < 100; c++ {
		tr := randomTwoValues(r, 60)
		v := Compact(tr, randomLevels(r, tr), 0)
		f := Fold(v, 1+r.IntN(v.After+1))
		seen := map[string]bool{}
		for i := range f.Nodes {
			h := f.Handle(int32(i))
			if j, err := f.Resolve(h); err != nil || j != int32(i) || seen[h] {
				t.Fatalf("case %d: node %d (%s), handle %s: resolves to %d, %v (seen before: %v)\n%s", c, i, f.Nodes[i].Name, h, j, err, seen[h], figure(f))
			}
			seen[h] = true
			if j, err := f.Resolve(f.Path(int32(i))); err != nil || j != int32(i) {
				t.Fatalf("case %d: path %q resolves to %d, %v, want %d", c, f.Path(int32(i)), j, err, i)
			}
		}
	}
}

// TestFoldStep: on random trees, a step on a folded view is the step on
// the view it folds (made by Compact or by a step, whose ids are not in
// pre-order): on a shown node, the same node there (the same view or the
// same refusal); on all, all; a fold node refuses every step.
func TestFoldStep(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	outcome := func(_ *State, v *View, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return figure(v)
	}
	for c := 0; c < 150; c++ {
		tr := randomTwoValues(r, 40)
		v := Compact(tr, randomLevels(r, tr), 0)
		if v.After == 0 {
			continue
		}
		for range 3 { // steps on roots, which renumber them
			if _, nv, err := Step(v, v.Roots[r.IntN(len(v.Roots))], 1-2*r.IntN(2)); err == nil {
				v = nv
			}
		}
		f := Fold(v, 1+r.IntN(v.After+1))
		if f == v {
			continue // nothing folded
		}
		for i := int32(-1); i < int32(len(f.Nodes)); i++ {
			for _, d := range []int{+1, -1} {
				got := outcome(Step(f, i, d))
				switch {
				case i >= 0 && f.orig[i] < 0:
					if !strings.Contains(got, "folded together, which a step cannot change") {
						t.Fatalf("case %d: step %+d on fold node %s: %s", c, d, f.Nodes[i].Name, got)
					}
				case i >= 0:
					if want := outcome(Step(v, f.orig[i], d)); got != want {
						t.Fatalf("case %d: step %+d on %s of the folded view:\n%s\nwant, as on the view:\n%s", c, d, f.Nodes[i].Name, got, want)
					}
				default:
					if want := outcome(Step(v, -1, d)); got != want {
						t.Fatalf("case %d: step %+d on all of the folded view:\n%s\nwant, as on the view:\n%s", c, d, got, want)
					}
				}
			}
		}
	}
}
