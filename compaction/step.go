package compaction

import (
	"context"
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
// rest of the view is shared, under the same ids but for the few nodes
// moved into the ids of dropped ones (the view's ids stay 0..After-1). Its
// cost is the size of that part plus a copy of the view's node table and
// hash order. R1 and R2 are checked on the recomputed nodes (on every node
// for target all).
func Step(v *View, target int32, delta int) (*State, *View, error) {
	return StepContext(context.Background(), v, target, delta)
}

// StepContext is Step that gives up when ctx is done, returning ctx's
// error.
func StepContext(ctx context.Context, v *View, target int32, delta int) (*State, *View, error) {
	if v.whole != nil { // a folded view: step the view it folds
		if target >= 0 && v.orig[target] < 0 {
			return nil, nil, fmt.Errorf("%s holds %d lighter nodes folded together, which a step cannot change: fit with more nodes, or step its parent",
				v.Nodes[target].Name, v.Nodes[target].Folded)
		}
		if target >= 0 {
			target = v.orig[target]
		}
		v = v.whole
	}
	t, s := v.Tree, v.state
	verb, what := "expand", "all"
	if delta < 0 {
		verb = "compact"
	}
	if target >= 0 {
		what = v.Nodes[target].Name
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
	var err error
	if target >= 0 {
		if nv, x, err = recompact(ctx, v, ns, target); err != nil {
			return nil, nil, err
		}
	}
	if nv == nil {
		if nv, err = CompactContext(ctx, t, ns, v.Value); err != nil {
			return nil, nil, err
		}
		x = nv.Check()
	}
	if x != nil && target >= 0 {
		return nil, nil, fmt.Errorf("%s %s refused: %s; %s", verb, what, x.describe(nv, "would be", "would absorb"), x.advice(nv, delta))
	}
	return ns, nv, nil
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

// recompact computes the view after a step on compacted node c of v, given
// the new state ns, by the local step (see local.go): it regroups the
// seeds of c and of the siblings it joins, and splices the groups into v
// under c's parent P. When one of c's seeds comes to start with P's name,
// P itself would absorb it: recompact then returns nil, and the caller
// recomputes everything. It returns the new view and the first violation
// of R1 or R2 on the nodes it made or re-parented, in pre-order, or nil;
// or ctx's error when ctx is done.
func recompact(ctx context.Context, v *View, ns *State, c int32) (*View, *Violation, error) {
	p := v.Parent(c)
	sibs := v.Roots
	if p >= 0 {
		for _, s := range v.Nodes[c].seeds {
			if ns.ix.startsWith(ns.ix.cname(v.Tree.Frame[s], ns.lv.at(s)), v.Nodes[p].name) {
				return nil, nil, nil
			}
		}
		sibs = v.Nodes[p].Children
	}
	removed := append([]int32{c}, joining(v, ns, c, sibs)...)
	var seeds []int32
	for _, x := range removed {
		seeds = append(seeds, v.Nodes[x].seeds...)
	}
	r, err := newRegroup(ctx, v, ns, c, seeds)
	if err != nil {
		return nil, nil, err
	}
	if !r.run() {
		return nil, nil, ctx.Err()
	}
	nv, x := r.splice(p, removed)
	return nv, x, nil
}
