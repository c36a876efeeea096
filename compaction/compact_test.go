package compaction

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// The figures of the paper's worked example, exactly as DESIGN.md §5 gives them.
const (
	figure2 = "lib1.Whale.breath [6] → lib1.Mammal.inhale [6] → lib2.Lung.inhale [6] → " +
		"{lib2.Muscle.contract [4] → {lib2.Nerve.transmit [3] → lib3.Signal.travel [3], lib3.Pressure.foo [1] → " +
		"lib3.Blood.flow [1]}, lib2.Muscle.stop [2] → lib2.Nerve.transmit [2] → lib3.Signal.travel [2]}"
	figure6  = "lib1 [6] → lib2 [6] → lib3 [6]"
	figure10 = "lib1.Whale.breath [6] → lib1.Mammal.inhale [6] → lib2 [6] → " +
		"{lib3.Signal.travel [5], lib3.Pressure.foo [1] → lib3.Blood.flow [1]}"
	figure7 = "lib1 [6] → lib2.Lung [6] → lib2.Muscle [6] → {lib2.Nerve [5] → lib3 [5], lib3 [1]}"
)

func TestWorkedExample(t *testing.T) {
	tr := toy(t)
	full := Compact(tr, NewState(tr, 99), 0)
	if got := figure(full); got != figure2 {
		t.Errorf("level 99:\n got %s\nwant %s", got, figure2)
	}
	one := Compact(tr, NewState(tr, 1), 0)
	if got := figure(one); got != figure6 {
		t.Errorf("level 1:\n got %s\nwant %s", got, figure6)
	}
	target, err := one.Resolve("lib1 > lib2")
	if err != nil {
		t.Fatal(err)
	}
	_, seven, err := Step(one, target, +1)
	if err != nil {
		t.Fatalf("expand lib1 > lib2: %v", err)
	}
	if got := figure(seven); got != figure7 {
		t.Errorf("expand lib1 > lib2:\n got %s\nwant %s", got, figure7)
	}
	s10, n, err := NewState(tr, 99).SetLevel(tr, 1, regexp.MustCompile(`^lib2\.`))
	if err != nil || n != 5 {
		t.Fatalf("SetLevel(1, ^lib2\\.) = %d nodes, %v; want 5 nodes", n, err)
	}
	ten := Compact(tr, s10, 0)
	if got := figure(ten); got != figure10 {
		t.Errorf("level 1 where=^lib2\\.:\n got %s\nwant %s", got, figure10)
	}
	for _, v := range []*View{full, one, seven, ten} {
		if x := v.Check(); x != nil {
			t.Errorf("%s: Check = %s, want no violation", figure(v), x.Describe(v))
		}
		checkInvariants(t, v)
	}
}

// TestCounterExamples are the two trees of DESIGN.md §5 where the literal
// rules and the group rule differ (both break R1). Each node's full name is
// its compacted name plus a distinguishing element, so siblings stay apart.
func TestCounterExamples(t *testing.T) {
	cases := []struct {
		nodes          []spec // name = compacted name
		literal, group [][]int
	}{{
		nodes:   []spec{{-1, "a.X.f", 1}, {0, "a.X.f", 1}, {0, "a.X.f", 1}, {0, "a", 1}},
		literal: [][]int{{0, 1, 2, 3}},
		group:   [][]int{{0, 1, 2}, {3}},
	}, {
		nodes: []spec{{-1, "b.Z.h", 1}, {0, "b.Z.h", 1}, {0, "b.Z.h", 1}, {2, "b.Z.h", 1},
			{0, "a.X", 1}, {1, "b", 1}, {3, "a", 1}, {5, "a", 1}},
		literal: [][]int{{0, 1, 2, 3, 5}, {4, 6, 7}},
		group:   [][]int{{0, 1, 2, 3}, {4, 6}, {5}, {7}},
	}}
	for ci, c := range cases {
		specs := slices.Clone(c.nodes)
		levels := make([]int32, len(specs))
		for i := range specs {
			levels[i] = int32(len(splitDots(specs[i].name)))
			specs[i].name += fmt.Sprintf(".n%d", i)
		}
		tr, ids := build(specs)
		lv := NewState(tr, 1).Levels()
		for i, id := range ids {
			lv[id] = levels[i]
		}
		s := stateWith(tr, lv)
		v := Compact(tr, s, 0)
		if got, want := groupsOf(partition(v), ids), c.group; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("tree %d: Compact groups = %v, want %v", ci+1, got, want)
		}
		if got, want := groupsOf(literalComponents(tr, s.Levels()), ids), c.literal; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("tree %d: literal components = %v, want %v", ci+1, got, want)
		}
		if x := v.Check(); x == nil || x.Rule != R1 {
			t.Errorf("tree %d: Check = %v, want an R1 violation", ci+1, x)
		}
		checkInvariants(t, v)
	}
}

func splitDots(s string) []string { return regexp.MustCompile(`\.`).Split(s, -1) }

// groupsOf turns a per-node partition into groups of spec indices, each
// sorted, ordered by their first index.
func groupsOf(part []int32, ids []int32) [][]int {
	byMin := map[int32][]int{}
	var order []int32
	for i, id := range ids {
		m := part[id]
		if _, ok := byMin[m]; !ok {
			order = append(order, m)
		}
		byMin[m] = append(byMin[m], i)
	}
	out := make([][]int, len(order))
	for k, m := range order {
		out[k] = byMin[m]
	}
	return out
}

// TestGroupOracle: Compact equals the plain group-rule transcription on
// random trees with arbitrary per-node levels (partition, names, totals,
// parents).
func TestGroupOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const trees = 10000
	for i := 0; i < trees; i++ {
		tr, _ := build(randomSpecs(r, 14, 0))
		s := randomLevels(r, tr)
		v := Compact(tr, s, 0)
		if err := sameAsOracle(v, groupOracle(tr, s.Levels(), 0)); err != nil {
			t.Fatalf("tree %d (levels %v): %v\n%s", i, s.Levels(), err, dump(v))
		}
		checkInvariants(t, v)
		checkPreorderIDs(t, v)
		if t.Failed() {
			t.Fatalf("tree %d:\n%s", i, dump(v))
		}
	}
}

// sameAsOracle compares a view with the group-rule oracle's groups.
func sameAsOracle(v *View, want []oGroup) error {
	if len(want) != v.After {
		return fmt.Errorf("%d compacted nodes, oracle has %d", v.After, len(want))
	}
	for _, g := range want {
		x := v.NodeOf(g.members[0])
		nd := v.Nodes[x]
		if !slices.Equal(nd.Members, g.members) {
			return fmt.Errorf("node %s: members %v, oracle %v", nd.Name, nd.Members, g.members)
		}
		if nd.Name != g.name || nd.Total != g.total {
			return fmt.Errorf("node %v: %s [%d], oracle %s [%d]", g.members, nd.Name, nd.Total, g.name, g.total)
		}
		wantUp := int32(-1)
		if g.parent >= 0 {
			wantUp = v.NodeOf(want[g.parent].members[0])
		}
		if v.Parent(x) != wantUp {
			return fmt.Errorf("node %v: parent %d, oracle's %d", g.members, v.Parent(x), wantUp)
		}
	}
	return nil
}

func dump(v *View) string {
	out := ""
	for _, i := range v.Preorder() {
		nd := v.Nodes[i]
		out += fmt.Sprintf("%d: %s [%d] up=%d members=%v\n", i, nd.Name, nd.Total, v.Parent(i), nd.Members)
	}
	return out
}

func TestEmptyTree(t *testing.T) {
	tr, _ := build(nil)
	v := Compact(tr, NewState(tr, 1), 0)
	if len(v.Nodes) != 0 || len(v.Roots) != 0 || v.Check() != nil {
		t.Errorf("Compact(empty) = %d nodes, %d roots", len(v.Nodes), len(v.Roots))
	}
	if _, err := v.Resolve("x"); err == nil {
		t.Errorf("Resolve(x) on an empty view: no error")
	}
	if _, _, err := Step(v, -1, +1); err == nil {
		t.Errorf("expand all on an empty view: no error")
	}
}
