package blueprint

import (
	"cmp"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// Of returns the boxes of v's Profiling Blueprint: one per
// compacted node in pre-order, its height the node's total. A node's call
// count is the sum of the counts c gives its highest members (the call-tree
// nodes where the compacted node is entered: the calls into the group from
// outside it); its Recursion, the counts of its members called by a
// member of the same name (direct recursion, which compaction folds into
// the node; for counts of calls only, not of objects or contentions); first (per call-tree node, when the recording has time
// order, else nil) orders callees by their first call, else they keep the
// view's order (heaviest first). mutations, when not nil, gives per frame
// id whether it mutates (Mutations); a node combines its members'.
// c, first and mutations are those of v's call tree; without counts
// (c.Calls nil) or without a call tree, every count is 0, unknown. Time
// is linear in the view and the call tree.
func Of(v *compaction.View, c analysis.Counts, first []int64, mutations []Mutation) *Blueprint {
	t := v.Tree
	b := &Blueprint{Value: valueType(v), Counts: c.Source, Timed: first != nil}
	// objects and contentions count on call paths, not entries: no recursion
	entries := analysis.Noun(c.Source) == "calls"
	pre := v.Preorder()
	box := make([]int32, len(v.Nodes)) // view node → box
	for k, i := range pre {
		box[i] = int32(k)
	}
	b.Boxes = make([]Box, len(pre))
	kids := make([]int32, 0, len(pre)) // every box's callees, in one array
	for k, i := range pre {
		n, bx := v.Nodes[i], &b.Boxes[k]
		*bx = Box{Name: n.Name, Node: i, Parent: -1, Total: n.Total, First: -1}
		if p := v.Parent(i); p >= 0 {
			bx.Parent = box[p]
		} else {
			b.Roots = append(b.Roots, int32(k))
		}
		start := len(kids)
		for _, ch := range n.Children {
			kids = append(kids, box[ch])
		}
		bx.Kids = kids[start:len(kids):len(kids)]
		if t != nil {
			countMembers(bx, n, i, v, c, first, mutations, entries)
		}
	}
	if b.Timed {
		byFirst := func(x, y int32) int { return firstOrder(b.Boxes[x].First, b.Boxes[y].First) }
		for i := range b.Boxes {
			slices.SortStableFunc(b.Boxes[i].Kids, byFirst)
		}
		slices.SortStableFunc(b.Roots, byFirst)
	}
	b.MarkRecursion()
	return b
}

// countMembers sums what a compacted node's members say into its box: the
// counts of its highest members (Calls) and of its members called by a
// member of the same name (Recursion), the earliest first entry, and the
// members' mutations.
func countMembers(bx *Box, n *compaction.Node, i int32, v *compaction.View, c analysis.Counts, first []int64, mutations []Mutation, entries bool) {
	t := v.Tree
	var ms []Mutation
	for _, m := range n.Members {
		switch pa := t.Parent[m]; {
		case c.Calls == nil:
		case pa < 0 || v.NodeOf(pa) != i:
			bx.Calls += c.Calls[m]
		case entries && t.Name(pa) == t.Name(m):
			bx.Recursion += c.Calls[m]
		}
		if first != nil && first[m] >= 0 && (bx.First < 0 || first[m] < bx.First) {
			bx.First = first[m]
		}
		if mutations != nil {
			ms = append(ms, mutations[t.Frame[m]])
		}
	}
	bx.Mutates = Combine(ms...)
}

// firstOrder orders first-entry times, unknown (-1) last.
func firstOrder(x, y int64) int {
	if (x < 0) != (y < 0) {
		return cmp.Compare(y, x) // the known one first
	}
	return cmp.Compare(x, y)
}

// valueType returns the view's value type, or plain samples for a view
// without a call tree.
func valueType(v *compaction.View) analysis.ValueType {
	if v.Tree != nil && v.Tree.Profile != nil && v.Value < len(v.Tree.Profile.ValueTypes) {
		return v.Unit()
	}
	return analysis.ValueType{Type: "samples", Unit: "count"}
}
