package compaction

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkInvariants checks the properties every view has (issue 4): each
// call-tree node in exactly one compacted node; the roots' totals sum to the
// profile total; a node's total is the sum of its seeds' totals and its self
// the total minus its children's; siblings have distinct names and are
// ordered by descending total then name; Preorder lists every node once.
func checkInvariants(t *testing.T, v *View) {
	t.Helper()
	tr := v.Tree
	seen := make([]int, tr.Len())
	for i, nd := range v.Nodes {
		if nd == nil {
			t.Fatalf("node id %d of %d is a hole", i, len(v.Nodes))
		}
		if !slices.IsSorted(nd.Members) || len(nd.Members) == 0 {
			t.Errorf("node %d %s: members %v not ascending or empty", i, nd.Name, nd.Members)
		}
		var seeds int64
		for _, m := range nd.Members {
			seen[m]++
			if v.NodeOf(m) != int32(i) {
				t.Errorf("NodeOf[%d] = %d, want %d", m, v.NodeOf(m), i)
			}
			if p := tr.Parent[m]; p < 0 || v.NodeOf(p) != int32(i) {
				seeds += tr.Total[v.Value][m]
			}
		}
		if nd.Total != seeds {
			t.Errorf("node %s: total %d, seeds' totals sum to %d", nd.Name, nd.Total, seeds)
		}
		self := nd.Total
		for _, c := range nd.Children {
			self -= v.Nodes[c].Total
			if v.Parent(c) != int32(i) || v.Depth(c) != v.Depth(int32(i))+1 {
				t.Errorf("node %s: child %d has parent %d depth %d", nd.Name, c, v.Parent(c), v.Depth(c))
			}
		}
		if nd.Self != self {
			t.Errorf("node %s: self %d, want %d", nd.Name, nd.Self, self)
		}
		if want := firstR2(v, nd); nd.r2 != want {
			t.Errorf("node %s: first member breaking R2 %d, a scan of the members says %d", nd.Name, nd.r2, want)
		}
		checkSiblings(t, v, nd.Children)
	}
	for n, k := range seen {
		if k != 1 {
			t.Errorf("call-tree node %d is in %d compacted nodes", n, k)
		}
	}
	var sum, want int64
	for _, r := range v.Roots {
		sum += v.Nodes[r].Total
	}
	for _, r := range tr.Roots {
		want += tr.Total[v.Value][r]
	}
	if sum != want || want+tr.Unrooted[v.Value] != tr.Profile.Total(v.Value) {
		t.Errorf("roots' totals sum to %d, want %d", sum, want)
	}
	checkSiblings(t, v, v.Roots)
	if v.After != len(v.Nodes) || v.Before != tr.Len() {
		t.Errorf("counts %d → %d, want %d → %d", v.Before, v.After, tr.Len(), len(v.Nodes))
	}
	pre := v.Preorder()
	visits := make([]int, len(v.Nodes))
	for _, i := range pre {
		visits[i]++
	}
	for i, k := range visits {
		if k != 1 {
			t.Errorf("node id %d: %d visits in pre-order", i, k)
		}
	}
}

// firstR2 is the plain R2 check of a node: its first member (ascending)
// whose compacted name is two or more elements longer than the node's.
func firstR2(v *View, nd *Node) int32 {
	ix, lv := v.state.ix, v.state.Levels()
	for _, m := range nd.Members {
		if ix.depth[ix.cname(v.Tree.Frame[m], lv[m])] >= ix.depth[nd.name]+2 {
			return m
		}
	}
	return -1
}

// checkPreorderIDs checks that a view made by Compact numbers its nodes in
// pre-order.
func checkPreorderIDs(t *testing.T, v *View) {
	t.Helper()
	if !isPreorderNumbered(v) {
		t.Fatalf("Compact: ids not in pre-order (%d ids for %d nodes; pre-order %v)", len(v.Nodes), v.After, v.Preorder())
	}
}

// checkSiblings: distinct names and order.
func checkSiblings(t *testing.T, v *View, kids []int32) {
	t.Helper()
	names := map[string]bool{}
	for k, c := range kids {
		nd := v.Nodes[c]
		if names[nd.Name] {
			t.Errorf("two siblings named %s", nd.Name)
		}
		names[nd.Name] = true
		if k > 0 {
			p := v.Nodes[kids[k-1]]
			if p.Total < nd.Total || (p.Total == nd.Total && p.Name >= nd.Name) {
				t.Errorf("siblings %s [%d] then %s [%d]: out of order", p.Name, p.Total, nd.Name, nd.Total)
			}
		}
	}
}

// TestInteractionReachable: on states reached by ProfVis's interactions —
// a uniform level, then random expand/compact steps, each refused when its
// result breaks R1 or R2 — Compact's partition equals the literal take-over
// rules' components (and the group-rule oracle's tree). With the paper's
// package.Class.method names every uniform start is clean; with names of 1
// to 4 elements, starts that already break R1 or R2 are skipped (the paper's
// prototype starts at level 1, which never does).
func TestInteractionReachable(t *testing.T) {
	t.Run("three elements", func(t *testing.T) { interactions(t, 3, 10000) })
	t.Run("one to four elements", func(t *testing.T) { interactions(t, 0, 10000) })
}

func interactions(t *testing.T, elems, want int) {
	r := rand.New(rand.NewPCG(3, uint64(4+elems)))
	states, nonUniform, refused, skipped := 0, 0, 0, 0
	for states < want {
		tr, _ := build(randomSpecs(r, 12, elems))
		v := Compact(tr, NewState(tr, 1+r.IntN(4)), 0)
		if v.Check() != nil {
			skipped++
			continue
		}
		uniform := true
		for step := 0; step < 8; step++ {
			if x := v.Check(); x != nil {
				t.Fatalf("reachable state breaks %s: %s\n%s", x.Rule, x.Describe(v), dump(v))
			}
			if got, want := partition(v), literalComponents(tr, v.State().Levels()); !slices.Equal(got, want) {
				t.Fatalf("state %d: Compact partition %v, literal rules %v (levels %v)\n%s", states, got, want, v.State().Levels(), dump(v))
			}
			if err := sameAsOracle(v, groupOracle(tr, v.State().Levels(), 0)); err != nil {
				t.Fatalf("state %d: %v", states, err)
			}
			states++
			if !uniform {
				nonUniform++
			}
			target := int32(-1)
			if k := r.IntN(v.After+1) - 1; k >= 0 {
				target = v.Preorder()[k]
			}
			delta := []int{-1, 1}[r.IntN(2)]
			_, nv, err := Step(v, target, delta)
			if err != nil {
				refused++
				checkRefusal(t, v, target, delta, err)
				continue
			}
			v = nv
			uniform = uniform && target < 0
		}
	}
	t.Logf("%d states (%d non-uniform), %d refused steps, %d unclean starts skipped", states, nonUniform, refused, skipped)
	if nonUniform < states/3 {
		t.Errorf("only %d of %d states are non-uniform; the walk explores too little", nonUniform, states)
	}
}

// checkRefusal: a step refused on a view without violations names the
// first violation in pre-order of the view it would have made, as
// computed from scratch.
func checkRefusal(t *testing.T, v *View, target int32, delta int, err error) {
	t.Helper()
	ns, changed := stepLevels(v.Tree, v.state, v, target, delta)
	if !changed {
		return
	}
	full := Compact(v.Tree, ns, v.Value)
	x := full.Check()
	if x == nil {
		t.Fatalf("step refused (%v), but the view it makes breaks no rule", err)
	}
	if want := x.describe(full, "would be", "would absorb"); !strings.Contains(err.Error(), want) {
		t.Fatalf("step refused with %q, want it to say %q", err, want)
	}
}
