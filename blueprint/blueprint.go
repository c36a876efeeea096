package blueprint

import "github.com/proflens/proflens/analysis"

// By says what a box of a Blueprint stands for.
type By string

const (
	// ByFunction is the paper's blueprint: one box per function (per
	// compacted name of the view), as wide as all its calls and as tall as
	// its inclusive value counted once per stack, its edges going to every
	// function it calls.
	ByFunction By = "function"
	// ByContext is one box per node of the view, a call path: a function
	// called from two places is two boxes.
	ByContext By = "context"
)

// Blueprint is the data of a Profiling Blueprint (seed 004): boxes as tall
// as their inclusive value and as wide as their call count (on a log
// scale), callers above callees, and the calls between them. It starts at
// the program's entry: the start-up chain above it (analysis.Tree.Startup)
// is no box, only Startup. Patterns finds the paper's visual patterns in
// it. Boxes are drawn as a tree (Parent, Kids, Roots): by context the call
// tree itself; by function each box under the caller through which it
// takes the most time, the other calls being Edges that the tree does not
// draw.
type Blueprint struct {
	By     By
	Boxes  []Box
	Roots  []int32 // indices into Boxes, in drawing order
	Edges  []Edge  // every call between boxes, by caller, then callee in drawing order
	Cycles []Cycle // the recursions, by box
	// Startup is the start-up chain above the roots, heaviest path first
	// ("0x1ab70", "(below main)", "__libc_start_main", "(below main)"), and
	// StartupTotal its inclusive value; nil when the profile has none.
	Startup      []string
	StartupTotal int64
	Value        analysis.ValueType   // what Total measures
	Counts       analysis.CountSource // where Calls come from; "" for no counts (every Calls 0)
	// Timed says a box's callees are in the order they were first called;
	// otherwise (the recording has no time order) heaviest first.
	Timed bool
}

// Box is one box of a Blueprint.
type Box struct {
	Name  string
	Node  int32   // the heaviest view node it stands for (its handle's)
	Nodes []int32 // every view node it stands for, ascending
	// Parent and Kids place the box in the drawing: its caller above it
	// (-1 for a root), the boxes below it, in drawing order.
	Parent int32
	Kids   []int32
	Total  int64 // inclusive value, counted once per stack: the box's height
	Calls  int64 // times entered: the box's width; 0 when unknown or never seen entered
	First  int64 // when it was first entered (ns since the start), -1 when unknown
	// Startup says the box is entered from the start-up chain (it is a
	// program's entry).
	Startup bool
	Mutates Mutation
}

// Edge is the calls from one box to another (or to itself).
type Edge struct {
	From, To int32
	Calls    int64 // how many, by the blueprint's count source (0 when unknown)
	// Total is To's inclusive value in these calls, counted once per stack:
	// 0 for calls into a box already on the stack, whose value its outer
	// call holds.
	Total int64
	First int64 // when the first of them was made, -1 when unknown
	// Back says some of these calls enter a box already on the stack, or a
	// function already on the stack at its full name: the paper's crossing
	// edges. Recursive says some enter a function already on the stack at
	// its full name (pattern F).
	Back, Recursive bool
}

// Cycle is one recursion: a function (at its full name, not a
// placeholder) called while it is already on the stack, directly or
// through others.
type Cycle struct {
	Box      int32  // the box of the function's outermost call
	Function string // its full name
	// Path is the boxes from the outermost call down to the first call
	// back, that call's box included (one box for a function that calls
	// itself), and Depth the calls along it.
	Path  []int32
	Depth int
	Calls int64 // the calls back, by the count source (0 when unknown or not entries)
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

// out returns, per box, the indices of its outgoing edges.
func (b *Blueprint) out() [][]int32 {
	out := make([][]int32, len(b.Boxes))
	for i, e := range b.Edges {
		out[e.From] = append(out[e.From], int32(i))
	}
	return out
}
