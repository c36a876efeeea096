package compaction

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkInvariants checks the properties every view has: each
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

// paperClean reports whether v keeps R1 and R2 as the paper states them,
// for every name, shortened or not: the states on which the group rule
// and the literal rules agree (DESIGN.md §5). The engine exempts names at
// their full length, so more states are reachable.
func paperClean(v *View) bool {
	ix := v.state.ix
	for _, i := range v.Preorder() {
		nd := v.Nodes[i]
		if p := v.Parent(i); p >= 0 {
			if pn := v.Nodes[p].name; ix.depth[nd.name] < ix.depth[pn] && ix.startsWith(pn, nd.name) {
				return false
			}
		}
		if firstR2(v, nd) >= 0 {
			return false
		}
	}
	return true
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
	states, nonUniform, refused, skipped, exempt, broken := 0, 0, 0, 0, 0, 0
	for states < want {
		tr, _ := build(randomSpecs(r, 12, elems))
		v := Compact(tr, NewState(tr, 1+r.IntN(4)), 0)
		if v.Check() != nil {
			skipped++
			continue
		}
		// clean: no uniform step (always taken) has left a violation on the
		// way, which the local steps, checking what they change, keep.
		uniform, clean := true, true
		for step := 0; step < 8; step++ {
			if x := v.Check(); x != nil && clean {
				t.Fatalf("reachable state breaks %s: %s\n%s", x.Rule, x.Describe(v), dump(v))
			}
			if !paperClean(v) {
				exempt++ // allowed because R1 and R2 concern shortened names only
			} else if got, want := partition(v), literalComponents(tr, v.State().Levels()); !slices.Equal(got, want) {
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
				if clean {
					checkRefusal(t, v, target, delta, err)
				}
				continue
			}
			if target < 0 && clean && nv.Check() != nil {
				clean = false
				broken++
			}
			v = nv
			uniform = uniform && target < 0
		}
	}
	t.Logf("%d states (%d non-uniform, %d that only the full-name exemption allows, %d walks that a uniform step left breaking R1 or R2), %d refused steps, %d unclean starts skipped",
		states, nonUniform, exempt, broken, refused, skipped)
	if exempt > states/2 {
		t.Errorf("%d of %d states break the paper's R1 or R2: too few compared with the literal rules", exempt, states)
	}
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

// TestUniformStepsUndo: expand all and compact all are always taken (unless
// they change nothing) and undo each other: after one and then the other,
// every node shows the level it showed before, on random trees in random
// states (levels 1 to 5 per node, names of one to four elements).
func TestUniformStepsUndo(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	pairs := 0
	for range 3000 {
		tr, _ := build(randomSpecs(r, 12, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for _, delta := range []int{+1, -1} {
			_, there, err := Step(v, -1, delta)
			if err != nil {
				if !strings.Contains(err.Error(), "nothing to") {
					t.Fatalf("uniform step %+d refused: %v", delta, err)
				}
				continue
			}
			_, back, err := Step(there, -1, -delta)
			if err != nil {
				t.Fatalf("uniform step %+d after %+d refused: %v", -delta, delta, err)
			}
			for n := range int32(tr.Len()) {
				if a, b := shown(v, n), shown(back, n); a != b {
					t.Fatalf("node %d shows level %d, after %+d and %+d level %d", n, a, delta, -delta, b)
				}
			}
			if got, want := partition(back), partition(v); !slices.Equal(got, want) {
				t.Fatalf("after %+d and %+d: partition %v, want %v", delta, -delta, got, want)
			}
			pairs++
		}
	}
	if pairs < 3000 {
		t.Errorf("only %d step pairs taken", pairs)
	}
}

// shown is the level call-tree node n shows in v: its level, at least 1
// and at most its name's length.
func shown(v *View, n int32) int32 {
	return min(max(v.state.lv.at(n), 1), v.state.ix.levels(v.Tree.Frame[n]))
}
