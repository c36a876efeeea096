package compaction

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// Step is one ProfVis interaction: it raises (delta = +1, expand) or lowers
// (delta = -1, compact) by one the level of every member of compacted node
// target of v (target -1: every call-tree node), and returns the new state
// and view. A step that changes nothing, or a step on one node that makes a
// compacted node break R1 or R2, is refused with an error that says what to
// do first; v is unchanged either way. The uniform steps (target -1) are
// always taken, and undo each other: a node at its full name remembers an
// expand (its level passes its name's length by one), and one at level 1 a
// compact (its level drops below 1), where neither shows.
//
// Only what the step can change is recomputed: the compacted nodes seeded
// under target's parent that the step touches (target itself, and for a
// compact the siblings it comes to merge with), with their subtrees; the
// rest of the view is shared. Its cost is the size of that part plus a copy
// of the view's node table and hash order (see the package doc). R1 and R2
// are checked on the recomputed nodes (on every node for target all).
func Step(v *View, target int32, delta int) (*State, *View, error) {
	t, s := v.Tree, v.state
	verb, what := "expand", "all"
	if delta < 0 {
		verb = "compact"
	}
	if target >= 0 {
		what = v.Nodes[target].Name
	}
	var on *helper // a second goroutine for a large step, started early (see helper)
	if target >= 0 && shared(v.seedSize(target)) {
		on = startHelper()
		defer on.stop()
	}
	ns, changed := stepLevels(t, s, v, target, delta)
	if !changed {
		if delta > 0 {
			return nil, nil, fmt.Errorf("%s %s: already at full names; nothing to expand", verb, what)
		}
		return nil, nil, fmt.Errorf("%s %s: already at level 1 (the top name element); nothing to compact", verb, what)
	}
	var nv *View
	var x *Violation
	if target >= 0 {
		nv, x = recompact(v, ns, target, on)
	}
	on.stop() // Compact below runs on one goroutine
	if nv == nil {
		nv = Compact(t, ns, v.Value)
		x = nv.Check()
	}
	if x != nil && target >= 0 {
		return nil, nil, fmt.Errorf("%s %s refused: %s; %s", verb, what, x.describe(nv, "would be", "would absorb"), x.advice(nv, delta))
	}
	if len(nv.Nodes) > 2*nv.After+renumberSlack {
		nv = nv.renumbered()
	}
	return ns, nv, nil
}

// renumberSlack is how many ids of dropped nodes a view may carry beyond as
// many as it has nodes before Step renumbers it (tests lower it).
var renumberSlack = 4096

// renumbered returns a copy of v with ids in pre-order and no dropped ids,
// as Compact numbers them: a chain of steps leaves behind ids of nodes it
// dropped, and the memory of the nodes sharing their allocations. Time is
// linear in the view; Step does it when over half the ids are dropped, so
// its cost per step is constant.
func (v *View) renumbered() *View {
	pre := v.Preorder()
	id := make([]int32, len(v.Nodes))
	for k, i := range pre {
		id[i] = int32(k)
	}
	n := len(pre)
	nv := &View{Tree: v.Tree, Value: v.Value, Before: v.Before, After: v.After, state: v.state,
		Nodes: make([]*Node, n), hlen: make([]uint8, n), sorted: v.sorted, byHash: make([]int32, n)}
	batch := make([]Node, n)
	kids := make([]int32, 0, n)
	parent := freshWriter(n)
	for k, i := range pre {
		nd := &batch[k]
		*nd = *v.Nodes[i]
		if p := v.Parent(i); p >= 0 {
			parent.set(int32(k), id[p])
		} else {
			parent.set(int32(k), -1)
		}
		if len(nd.Children) > 0 {
			lo := len(kids)
			for _, c := range nd.Children {
				kids = append(kids, id[c])
			}
			nd.Children = kids[lo:len(kids):len(kids)]
		}
		nv.Nodes[k], nv.hlen[k] = nd, v.hlen[i]
	}
	nv.Roots = make([]int32, len(v.Roots))
	for k, r := range v.Roots {
		nv.Roots[k] = id[r]
	}
	for k, i := range v.byHash {
		nv.byHash[k] = id[i]
	}
	w := freshWriter(v.nodeOf.len())
	for p, page := range v.nodeOf.pages {
		out := w.l.pages[p]
		for k, i := range page {
			out[k] = id[i]
		}
	}
	nv.nodeOf, nv.parent = w.l, parent.l
	return nv
}

// advice says what to do before the refused step.
func (x *Violation) advice(v *View, delta int) string {
	if x.Rule == R2 {
		return "lower that to " + x.Lower + " first"
	}
	if delta < 0 {
		return "compact " + v.Nodes[x.Parent].Name + " first"
	}
	return "expand " + v.Nodes[x.Node].Name + " first"
}

// stepLevels returns s with the members of target moved by delta, each
// within [1, its name's length], and whether any level shown changed. The
// uniform steps (target -1) move every level as uniformLevel says.
func stepLevels(t *analysis.Tree, s *State, v *View, target int32, delta int) (*State, bool) {
	ix := s.ix
	w := s.lv.writer()
	changed := false
	move := func(m int32) {
		n := ix.levels(t.Frame[m])
		old := min(s.lv.at(m), n)
		g := max(1, min(old+int32(delta), n))
		if g != old {
			changed = true
		}
		w.set(m, g)
	}
	if target < 0 {
		for m := range int32(t.Len()) {
			n := ix.levels(t.Frame[m])
			g := uniformLevel(s.lv.at(m), n, delta)
			changed = changed || min(max(g, 1), n) != min(max(s.lv.at(m), 1), n)
			w.set(m, g)
		}
	} else {
		for _, m := range v.Nodes[target].Members {
			move(m)
		}
	}
	return &State{lv: w.l, ix: ix}, changed
}

// uniformLevel returns level l of a node whose name has n elements after a
// uniform expand (delta +1) or compact (-1): one more or one less than the
// level it shows, except that a compact after an expand at the full name
// (l = n+1) returns to n, so that expand all and compact all undo each
// other; a level below 1 shows as 1 and is kept, for the same reason.
func uniformLevel(l, n int32, delta int) int32 {
	if delta > 0 {
		return min(l, n) + 1
	}
	if l == n+1 {
		return n
	}
	return min(l, n) - 1
}

// seedSize returns the number of call-tree nodes below node i's seeds: the
// size of the regrouping of a step on i (and of the siblings it joins).
func (v *View) seedSize(i int32) int32 {
	n := int32(0)
	for _, s := range v.Nodes[i].seeds {
		n += v.Tree.Size[s]
	}
	return n
}
