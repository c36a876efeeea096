package compaction

import "github.com/proflens/proflens/analysis"

// Node is one compacted node: a connected component of the take-over
// relation (DESIGN.md §5).
type Node struct {
	Name     string  // displayed compacted name (the shortest among the members)
	Handle   string  // short, stable id derived from the path of names from the root
	Parent   int32   // index into View.Nodes, -1 for a root
	Children []int32 // indices into View.Nodes, by descending Total, then Name
	Depth    int32   // 0 for roots
	Total    int64   // sum of the totals of the highest members, in the view's value type
	Self     int64   // Total minus the children's totals
	Members  []int32 // call-tree node ids, ascending
}

// View is a compacted tree: the pure result of a call tree and a granularity
// state. Nodes are in pre-order (a node's subtree follows it).
type View struct {
	Tree   *analysis.Tree
	Value  int // value type index into Tree.Profile.ValueTypes
	Nodes  []Node
	Roots  []int32 // by descending Total, then Name
	Before int     // call-tree nodes
	After  int     // compacted nodes (len(Nodes))

	// NodeOf gives, per call-tree node id, the index in Nodes of the
	// compacted node it belongs to.
	NodeOf []int32

	name  []int32 // per node: compacted name id in the state's index
	state *State  // the state the view was computed from
}
