package analysis

// FrameTotals returns, per frame id, the self and total values of value
// type v over the call tree: self sums Self at every node of the frame;
// total sums Total at the nodes of the frame that have no ancestor of the
// same frame, so that recursion is not counted twice. Frames without weight
// are absent. Time and memory are linear in the tree.
func FrameTotals(t *Tree, v int) (self, total map[int32]int64) {
	return GroupTotals(t, v, nil)
}

// GroupTotals is FrameTotals for groups of frames: group[f] names the group
// of frame f (nil means every frame is its own group), and a node counts
// towards its group's total unless an ancestor belongs to the same group.
func GroupTotals(t *Tree, v int, group []int32) (self, total map[int32]int64) {
	self = make(map[int32]int64)
	total = make(map[int32]int64)
	open := make(map[int32]int32) // group → open ancestors in that group
	var path []int32              // groups of the nodes on the current path
	for n := 0; n < t.Len(); n++ {
		for d := int(t.Depth[n]); len(path) > d; path = path[:len(path)-1] {
			open[path[len(path)-1]]--
		}
		g := t.Frame[n]
		if group != nil {
			g = group[g]
		}
		if s := t.Self[v][n]; s != 0 {
			self[g] += s
		}
		if open[g] == 0 && t.Total[v][n] != 0 {
			total[g] += t.Total[v][n]
		}
		open[g]++
		path = append(path, g)
	}
	return self, total
}
