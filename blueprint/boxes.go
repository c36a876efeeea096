package plotting

import (
	"cmp"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// Blueprint is what the blueprint kind draws besides the view
// (Options.Blueprint): the boxes with their counts, the patterns found in
// them, and the scales.
type Blueprint struct {
	Boxes    *analysis.Blueprint // made by BlueprintOf for the view drawn
	Patterns []analysis.Pattern  // badges on the boxes they are about
	// Height is the value drawn as a box of full height (blueprintHeight
	// pixels); 0 is the tallest box drawn. Width is the call count drawn as
	// a box of full width (on a log scale); 0 is the widest drawn. Giving
	// both draws two profiles on the same scales.
	Height, Width int64

	nodeBox []int32 // per view node, its box (byNode)
}

// BlueprintOf returns the boxes of v's Profiling Blueprint: one per
// compacted node in pre-order, its height the node's total. A node's call
// count is the sum of the counts c gives its highest members (the call-tree
// nodes where the compacted node is entered: the calls into the group from
// outside it); its Recursion, the counts of its members called by a
// member of the same name (direct recursion, which compaction folds into
// the node; for counts of calls only, not of objects or contentions); first (per call-tree node, when the recording has time
// order, else nil) orders callees by their first call, else they keep the
// view's order (heaviest first). mutations, when not nil, gives per frame
// id whether it mutates (analysis.Mutations); a node combines its members'.
// c, first and mutations are those of v's call tree; without counts
// (c.Calls nil) or without a call tree, every count is 0, unknown. Time
// is linear in the view and the call tree.
func BlueprintOf(v *compaction.View, c analysis.Counts, first []int64, mutations []analysis.Mutation) *analysis.Blueprint {
	t := v.Tree
	b := &analysis.Blueprint{Value: valueType(v), Counts: c.Source, Timed: first != nil}
	// objects and contentions count on call paths, not entries: no recursion
	entries := analysis.Noun(c.Source) == "calls"
	pre := v.Preorder()
	box := make([]int32, len(v.Nodes)) // view node → box
	for k, i := range pre {
		box[i] = int32(k)
	}
	b.Boxes = make([]analysis.Box, len(pre))
	kids := make([]int32, 0, len(pre)) // every box's callees, in one array
	for k, i := range pre {
		n, bx := v.Nodes[i], &b.Boxes[k]
		*bx = analysis.Box{Name: n.Name, Node: i, Parent: -1, Total: n.Total, First: -1}
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
func countMembers(bx *analysis.Box, n *compaction.Node, i int32, v *compaction.View, c analysis.Counts, first []int64, mutations []analysis.Mutation, entries bool) {
	t := v.Tree
	var ms []analysis.Mutation
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
	bx.Mutates = analysis.Combine(ms...)
}

// firstOrder orders first-entry times, unknown (-1) last.
func firstOrder(x, y int64) int {
	if (x < 0) != (y < 0) {
		return cmp.Compare(y, x) // the known one first
	}
	return cmp.Compare(x, y)
}

// byNode returns, per view node, the index of its box (-1 for none),
// made on first use.
func (bp *Blueprint) byNode() []int32 {
	if bp.nodeBox == nil {
		n := int32(0)
		for i := range bp.Boxes.Boxes {
			n = max(n, bp.Boxes.Boxes[i].Node+1)
		}
		bp.nodeBox = make([]int32, n)
		for i := range bp.nodeBox {
			bp.nodeBox[i] = -1
		}
		for i := range bp.Boxes.Boxes {
			bp.nodeBox[bp.Boxes.Boxes[i].Node] = int32(i)
		}
	}
	return bp.nodeBox
}

// blueprintSource is a Blueprint's boxes as a source to select from: ids
// are view nodes, callees in the blueprint's drawing order.
type blueprintSource struct {
	b   *analysis.Blueprint
	box []int32 // view node → box
	top []int32 // view nodes
}

// newBlueprintSource selects from the boxes below roots (view nodes), or
// from the blueprint's roots when roots is nil.
func newBlueprintSource(bp *Blueprint, roots []int32) *blueprintSource {
	b := bp.Boxes
	s := &blueprintSource{b: b, box: bp.byNode()}
	if roots == nil {
		for _, r := range b.Roots {
			roots = append(roots, b.Boxes[r].Node)
		}
	}
	for _, r := range roots {
		if int(r) < len(s.box) && s.box[r] >= 0 && b.Boxes[s.box[r]].Total > 0 {
			s.top = append(s.top, r)
		}
	}
	return s
}

func (s *blueprintSource) tops() []int32 { return s.top }

func (s *blueprintSource) kids(i int32) []int32 {
	var out []int32
	for _, k := range s.b.Boxes[s.box[i]].Kids {
		if bx := &s.b.Boxes[k]; bx.Total > 0 {
			out = append(out, bx.Node)
		}
	}
	return out
}

func (s *blueprintSource) item(i int32) Item {
	bx := &s.b.Boxes[s.box[i]]
	self := bx.Total
	for _, k := range bx.Kids {
		self -= s.b.Boxes[k].Total
	}
	return Item{Name: bx.Name, Total: bx.Total, Self: self, Nodes: []int32{i}}
}
