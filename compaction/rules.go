package compaction

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// Rule names one of the two restrictions that ProfVis's interactions enforce
// on the resulting view (DESIGN.md §5, seed 000 §3.3.2).
type Rule string

const (
	// R1: no compacted node's name is a proper prefix of its parent's name
	// (a child cannot be coarser than its parent within the parent's package).
	R1 Rule = "R1"
	// R2: no compacted node has a member whose compacted name is two or more
	// elements longer than the node's name.
	R2 Rule = "R2"
)

// Violation is the first place where a view breaks R1 or R2.
type Violation struct {
	Rule   Rule
	Node   int32  // index in View.Nodes of the offending compacted node
	Parent int32  // R1: the parent it is coarser than
	Member int32  // R2: the call-tree node it would absorb
	Lower  string // R2: the name that member must be lowered to first
}

// Describe says in one line what is wrong, for a note or an error.
func (x *Violation) Describe(v *View) string {
	nd := v.Nodes[x.Node]
	if x.Rule == R1 {
		return fmt.Sprintf("%s is coarser than its parent %s (R1: a child cannot take over its parent)",
			nd.Name, v.Nodes[x.Parent].Name)
	}
	return fmt.Sprintf("%s absorbs %s, two or more levels finer (R2: one package level at a time)",
		nd.Name, v.memberName(x.Member))
}

// memberName is the compacted name call-tree node n shows in v.
func (v *View) memberName(n int32) string {
	ix := v.state.ix
	return ix.str[ix.cname(v.Tree.Frame[n], v.state.Level[n])]
}

// Check returns the first violation of R1 or R2 in v, in pre-order, or nil.
// Linear in the tree.
func (v *View) Check() *Violation {
	ix := v.state.ix
	frame, level := v.Tree.Frame, v.state.Level
	for i := range v.Nodes {
		nd := &v.Nodes[i]
		name := v.name[i]
		if p := nd.Parent; p >= 0 {
			pn := v.name[p]
			if ix.depth[name] < ix.depth[pn] && ix.startsWith(pn, name) {
				return &Violation{Rule: R1, Node: int32(i), Parent: p, Member: -1}
			}
		}
		d := ix.depth[name]
		for _, m := range nd.Members {
			c := ix.cname(frame[m], level[m])
			if ix.depth[c] >= d+2 {
				low := c
				for ix.depth[low] > d+1 {
					low = ix.parent[low]
				}
				return &Violation{Rule: R2, Node: int32(i), Parent: -1, Member: m, Lower: ix.str[low]}
			}
		}
	}
	return nil
}

// State returns the granularity state v was computed from. It must not be
// modified.
func (v *View) State() *State { return v.state }

// Step is one ProfVis interaction: it raises (delta = +1, expand) or lowers
// (delta = -1, compact) by one the level of every member of compacted node
// target of v (target -1: every call-tree node), and returns the new state
// and view. A step that changes nothing, or whose result breaks R1 or R2, is
// refused with an error that says what to do first; v is unchanged either way.
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
	nv := Compact(t, ns, v.Value)
	if x := nv.Check(); x != nil {
		return nil, nil, fmt.Errorf("%s %s: refused: %s; %s", verb, what, x.Describe(nv), x.advice(nv, delta))
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
		g := min(ns.Level[m], n) + int32(delta)
		g = max(1, min(g, n))
		if g != min(ns.Level[m], n) {
			changed = true
		}
		if g != ns.Level[m] {
			ns.Level[m] = g
		}
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
