package plotting

import (
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// Blueprint is what the blueprint kind draws besides the view
// (Options.Blueprint): the boxes with their counts, the patterns found in
// them, and the scales.
type Blueprint struct {
	Boxes    *blueprint.Blueprint // made by blueprint.Of for the view drawn
	Patterns []blueprint.Pattern  // badges on the boxes they are about
	// Height is the value drawn as a box of full height (blueprintHeight
	// pixels); 0 is the tallest box drawn. Width is the call count drawn as
	// a box of full width (on a log scale); 0 is the widest drawn. Giving
	// both draws two profiles on the same scales.
	Height, Width int64
	// NoCounts, for a blueprint without counts (Boxes.Counts ""), says why
	// in the legend, as the caller words it; "" says nothing more.
	NoCounts string

	nodeBox []int32 // per view node, its box (byNode)
}

// byNode returns, per view node, the index of its box (-1 for none, as in
// the start-up chain), made on first use.
func (bp *Blueprint) byNode() []int32 {
	if bp.nodeBox == nil {
		n := int32(0)
		for i := range bp.Boxes.Boxes {
			for _, vn := range bp.Boxes.Boxes[i].Nodes {
				n = max(n, vn+1)
			}
		}
		bp.nodeBox = make([]int32, n)
		for i := range bp.nodeBox {
			bp.nodeBox[i] = -1
		}
		for i := range bp.Boxes.Boxes {
			for _, vn := range bp.Boxes.Boxes[i].Nodes {
				bp.nodeBox[vn] = int32(i)
			}
		}
	}
	return bp.nodeBox
}

// boxOf returns the box an item stands for, -1 for a fold mark.
func (bp *Blueprint) boxOf(it *Item) int32 {
	if len(it.Nodes) == 0 {
		return -1
	}
	return bp.byNode()[it.Nodes[0]]
}

// blueprintSource is a Blueprint's boxes as a source to select from: ids
// are box indices, callees in the blueprint's drawing order.
type blueprintSource struct {
	b   *blueprint.Blueprint
	v   *compaction.View
	top []int32
}

// newBlueprintSource selects from the boxes of the view nodes roots, or
// from the blueprint's roots when roots is nil.
func newBlueprintSource(bp *Blueprint, v *compaction.View, roots []int32) *blueprintSource {
	b := bp.Boxes
	s := &blueprintSource{b: b, v: v}
	if roots == nil {
		s.top = positiveBoxes(b, b.Roots)
		return s
	}
	box := bp.byNode()
	for _, r := range roots {
		if int(r) < len(box) && box[r] >= 0 {
			s.top = append(s.top, positiveBoxes(b, []int32{box[r]})...)
		}
	}
	return s
}

// positiveBoxes returns the boxes of ids with a positive total.
func positiveBoxes(b *blueprint.Blueprint, ids []int32) []int32 {
	var out []int32
	for _, i := range ids {
		if b.Boxes[i].Total > 0 {
			out = append(out, i)
		}
	}
	return out
}

func (s *blueprintSource) tops() []int32 { return s.top }

// span is the weight the top boxes stand for together: the totals of their
// view nodes that lie under no other of those nodes. One function's box
// holds all its places, so two top boxes may share weight (a function
// called from the start-up chain and from main is a top box and inside
// main's), and the sum of their totals would count it twice.
func (s *blueprintSource) span() int64 {
	in := map[int32]bool{}
	for _, t := range s.top {
		for _, n := range s.b.Boxes[t].Nodes {
			in[n] = true
		}
	}
	var w int64
	for n := range in {
		p := s.v.Parent(n)
		for p >= 0 && !in[p] {
			p = s.v.Parent(p)
		}
		if p < 0 {
			w += s.v.Nodes[n].Total
		}
	}
	return w
}

func (s *blueprintSource) kids(i int32) []int32 { return positiveBoxes(s.b, s.b.Boxes[i].Kids) }

// item is box i; its self value is its view nodes' (the samples whose
// leaf is in it).
func (s *blueprintSource) item(i int32) Item {
	bx := &s.b.Boxes[i]
	var self int64
	for _, n := range bx.Nodes {
		self += s.v.Nodes[n].Self
	}
	return Item{Name: bx.Name, Total: bx.Total, Self: self, Nodes: bx.Nodes}
}
