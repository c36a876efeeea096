package compaction

import "fmt"

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
func (x *Violation) Describe(v *View) string { return x.describe(v, "is", "absorbs") }

// describe words the violation with the given verbs ("would be", "would
// absorb" for a refused step).
func (x *Violation) describe(v *View, be, absorb string) string {
	nd := v.Nodes[x.Node]
	if x.Rule == R1 {
		return fmt.Sprintf("%s %s coarser than its parent %s (R1: a child cannot take over its parent)",
			nd.Name, be, v.Nodes[x.Parent].Name)
	}
	return fmt.Sprintf("%s %s %s, two or more levels finer (R2: one package level at a time)",
		nd.Name, absorb, v.memberName(x.Member))
}

// memberName is the compacted name call-tree node n shows in v.
func (v *View) memberName(n int32) string {
	ix := v.state.ix
	return ix.str[ix.cname(v.Tree.Frame[n], v.state.lv.at(n))]
}

// Check returns the first violation of R1 or R2 in v, in pre-order, or nil.
// Linear in the tree.
func (v *View) Check() *Violation {
	for _, i := range v.Preorder() {
		if x := v.check(i); x != nil {
			return x
		}
	}
	return nil
}

// check looks for a violation at node i.
func (v *View) check(i int32) *Violation {
	if v.Nodes[i].name < 0 {
		return nil // a fold node: no name of the call tree's
	}
	p, pn := v.Parent(i), int32(-1)
	if p >= 0 {
		pn = v.Nodes[p].name
	}
	return v.violation(i, p, v.Nodes[i].name, pn, v.Nodes[i].r2, v.Nodes[i].seeds)
}

// violation looks for a violation at node i, named name, under node p (-1
// for none) named pn, whose first member that breaks R2 is r2 (-1 for
// none) and whose seeds are seeds: what check does, for a node still being
// made. R1 and R2 concern names that compaction shortened: a node at a
// function's full name is that function, never coarser than its parent,
// and it absorbs what it absorbs by the rules.
func (v *View) violation(i, p, name, pn, r2 int32, seeds []int32) *Violation {
	ix := v.state.ix
	frame, level := v.Tree.Frame, v.state.lv
	if (p >= 0 && ix.depth[name] < ix.depth[pn] && ix.startsWith(pn, name) || r2 >= 0) && !v.shortened(name, seeds) {
		return nil
	}
	if p >= 0 && ix.depth[name] < ix.depth[pn] && ix.startsWith(pn, name) {
		return &Violation{Rule: R1, Node: i, Parent: p, Member: -1}
	}
	if m := r2; m >= 0 { // found when the node was made (absorb)
		low := ix.cname(frame[m], level.at(m))
		for ix.depth[low] > ix.depth[name]+1 {
			low = ix.parent[low]
		}
		return &Violation{Rule: R2, Node: i, Parent: -1, Member: m, Lower: ix.str[low]}
	}
	return nil
}

// shortened reports whether name, the name of a compacted node with the
// given seeds, is shorter than the full name it stands for: no seed shows
// its frame's full name as name.
func (v *View) shortened(name int32, seeds []int32) bool {
	ix, level := v.state.ix, v.state.lv
	for _, s := range seeds {
		f := v.Tree.Frame[s]
		if n := ix.levels(f); level.at(s) >= n && ix.cname(f, n) == name {
			return false
		}
	}
	return true
}

// State returns the granularity state v was computed from. It must not be
// modified.
func (v *View) State() *State { return v.state }
