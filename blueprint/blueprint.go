package blueprint

import "github.com/proflens/proflens/analysis"

// Blueprint is the data of a Profiling Blueprint (seed 004): one box per
// node of a call tree (or of a compacted view of one), as tall as its
// inclusive value and as wide as its call count (on a log scale), callers
// above callees. Patterns finds the paper's visual patterns in it. Boxes
// are in pre-order, a box's callees in drawing order.
type Blueprint struct {
	Boxes  []Box
	Roots  []int32              // indices into Boxes, in drawing order
	Value  analysis.ValueType   // what Total measures
	Counts analysis.CountSource // where Calls come from
	// Timed says a box's callees are in the order they were first called;
	// otherwise (the recording has no time order) heaviest first.
	Timed bool
}

// Box is one box of a Blueprint.
type Box struct {
	Name   string
	Node   int32   // the node it stands for, in the caller's numbering (a view's node id)
	Parent int32   // index into Blueprint.Boxes, -1 for a root
	Kids   []int32 // indices into Blueprint.Boxes, in drawing order
	Total  int64   // inclusive value: the box's height
	Calls  int64   // times entered: the box's width; 0 when never seen entered
	First  int64   // when it was first entered (ns since the start), -1 when unknown
	// Recursive is, for a call back into a function already on its call
	// path (an ancestor box of the same name), that ancestor's index: the
	// paper's crossing edge goes from this box's caller back up to it. -1
	// otherwise.
	Recursive int32
	// Recursion counts the calls of a function from itself that the box
	// holds: a compacted node takes in the nodes below it with its own name,
	// so direct recursion (fib calling fib) is inside one box. It is drawn
	// as a crossing edge from the box back to itself.
	Recursion int64
	Mutates   Mutation
}

// Mutation says whether a box's function modifies its receiver or its
// arguments, the paper's grey (mutates) and yellow (does not) shading.
// Profiles do not carry it; a side file can (Mutations).
type Mutation int8

const (
	MutationUnknown Mutation = iota
	Mutates
	Pure
)

// MarkRecursion sets each box's Recursive: the nearest ancestor with the
// same name, or -1. It walks the boxes depth first, keeping the boxes of
// the current path by name: time is linear in the boxes.
func (b *Blueprint) MarkRecursion() {
	onPath := map[string][]int32{} // name → the boxes of that name on the current path
	type visit struct {
		box  int32
		exit bool
	}
	var stack []visit
	for i := len(b.Roots) - 1; i >= 0; i-- {
		stack = append(stack, visit{box: b.Roots[i]})
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		box := &b.Boxes[v.box]
		same := onPath[box.Name]
		if v.exit {
			onPath[box.Name] = same[:len(same)-1]
			continue
		}
		box.Recursive = -1
		if len(same) > 0 {
			box.Recursive = same[len(same)-1]
		}
		onPath[box.Name] = append(same, v.box)
		stack = append(stack, visit{box: v.box, exit: true})
		for k := len(box.Kids) - 1; k >= 0; k-- {
			stack = append(stack, visit{box: box.Kids[k]})
		}
	}
}
