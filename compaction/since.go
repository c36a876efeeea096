package compaction

import "slices"

// NewSince returns, by node id of v, whether the node is new since the
// view old: whether old has no node with the same members, the same
// call-tree nodes (a node that a step split, merged, or gave members of
// another). A node a step left alone is not new, nor is one it moved under
// a new parent. Every node is new when old is nil or of another call
// tree; views made by Assemble compare the members they were given. Time
// is linear in v, plus the members of the nodes that are not old's own.
func (v *View) NewSince(old *View) []bool {
	out := make([]bool, len(v.Nodes))
	for i, nd := range v.Nodes {
		out[i] = old == nil || old.Tree != v.Tree || !old.holds(nd)
	}
	return out
}

// holds reports whether v has a node with the members of nd.
func (v *View) holds(nd *Node) bool {
	if len(nd.Members) == 0 || int(nd.Members[0]) >= v.nodeOf.n {
		return false
	}
	j := v.NodeOf(nd.Members[0])
	return j >= 0 && (v.Nodes[j] == nd || slices.Equal(v.Nodes[j].Members, nd.Members))
}
