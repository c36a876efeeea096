package compaction

// Totals returns, by node id, what each compacted node's Total and Self
// would be in value type value of the view's call tree: a node's total is
// the sum of the totals of its highest members (those whose parent is in
// another node), its self the sum of its members' selves. It is how a view
// of one value type is read in another (a difference's base and new values)
// without compacting again. Time is linear in the tree.
func (v *View) Totals(value int) (total, self []int64) {
	t := v.Tree
	total, self = make([]int64, len(v.Nodes)), make([]int64, len(v.Nodes))
	for i, n := range v.Nodes {
		for _, m := range n.Members {
			self[i] += t.Self[value][m]
			if p := t.Parent[m]; p < 0 || v.NodeOf(p) != int32(i) {
				total[i] += t.Total[value][m]
			}
		}
	}
	return total, self
}
