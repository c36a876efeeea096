package compaction

import (
	"sync"

	"github.com/proflens/proflens/analysis"
)

// Node is one compacted node: a connected component of the take-over
// relation (DESIGN.md §5).
type Node struct {
	Name     string  // displayed compacted name (the shortest among the members)
	Handle   string  // short, stable id: from its name and the call path where it starts (see doc.go)
	Parent   int32   // index into View.Nodes, -1 for a root
	Depth    int32   // 0 for roots (next to Parent: no padding, 104 bytes a node)
	Children []int32 // indices into View.Nodes, by descending Total, then Name
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

	name   []int32   // per node: compacted name id in the state's index
	seeds  [][]int32 // per node: its highest members
	hash   []uint64  // per node: hash of its path of names (see handles)
	byHash []int32   // node indices by (hash, index)
	sorted []uint64  // the hashes in byHash order
	hlen   []uint8   // per node: the length its Handle was made with
	state  *State    // the state the view was computed from

	nodeOf     []int32 // per call-tree node: its compacted node; built on first use
	nodeOfOnce sync.Once
}

// NodeOf returns the index in Nodes of the compacted node that call-tree
// node n belongs to. The first call builds a table in time linear in the
// tree.
func (v *View) NodeOf(n int32) int32 {
	v.nodeOfOnce.Do(func() {
		v.nodeOf = make([]int32, v.Tree.Len())
		for i := range v.Nodes {
			for _, m := range v.Nodes[i].Members {
				v.nodeOf[m] = int32(i)
			}
		}
	})
	return v.nodeOf[n]
}
