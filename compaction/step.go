package compaction

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// Step is one ProfVis interaction: it raises (delta = +1, expand) or lowers
// (delta = -1, compact) by one the level of every member of compacted node
// target of v (target -1: every call-tree node), and returns the new state
// and view. A step that changes nothing, or that makes a compacted node
// break R1 or R2, is refused with an error that says what to do first; v is
// unchanged either way.
//
// Only what the step can change is recomputed: the compacted nodes seeded
// under target's parent that the step touches (target itself, and for a
// compact the siblings it comes to merge with), with their subtrees; the
// rest of the view is copied. Its cost is the size of that part plus a copy
// of the view and of the levels. R1 and R2 are checked on the recomputed
// nodes (on every node for target all).
func Step(v *View, target int32, delta int) (*State, *View, error) {
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
	if target >= 0 {
		var check []int32
		nv, check = recompact(v, ns, target)
		for _, a := range check {
			if x = nv.check(a, a+1); x != nil {
				break
			}
		}
	}
	if nv == nil {
		nv = Compact(t, ns, v.Value)
		x = nv.Check()
	}
	if x != nil {
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
// within [1, its name's length], and whether any level changed.
func stepLevels(t *analysis.Tree, s *State, v *View, target int32, delta int) (*State, bool) {
	ns := s.clone()
	ix := s.ix
	changed := false
	move := func(m int32) {
		n := ix.levels(t.Frame[m])
		old := min(ns.Level[m], n)
		g := max(1, min(old+int32(delta), n))
		if g != old {
			changed = true
		}
		ns.Level[m] = g
	}
	if target < 0 {
		for m := range ns.Level {
			move(int32(m))
		}
	} else {
		for _, m := range v.Nodes[target].Members {
			move(m)
		}
	}
	return ns, changed
}

// subtree returns the number of nodes in node i's subtree.
func (v *View) subtree(i int32) int32 {
	end := i + 1
	for end < int32(len(v.Nodes)) && v.Nodes[end].Depth > v.Nodes[i].Depth {
		end++
	}
	return end - i
}
