package plotting

import "github.com/proflens/proflens/blueprint"

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

	nodeBox []int32 // per view node, its box (byNode)
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
	b   *blueprint.Blueprint
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
