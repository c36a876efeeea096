package analysis

// FrameTotals returns, per frame id, the self and total values of value
// type v over the call tree: self sums Self at every node of the frame;
// total sums Total at the nodes of the frame that have no ancestor of the
// same frame, so that recursion is not counted twice. Frames without weight
// are absent. Time and memory are linear in the tree.
func FrameTotals(t *Tree, v int) (self, total map[int32]int64) {
	self = make(map[int32]int64)
	total = make(map[int32]int64)
	open := make(map[int32]int32) // frame → number of open ancestors of that frame
	var path []int32              // frames of the nodes on the current path
	for n := 0; n < t.Len(); n++ {
		for d := int(t.Depth[n]); len(path) > d; path = path[:len(path)-1] {
			open[path[len(path)-1]]--
		}
		f := t.Frame[n]
		if s := t.Self[v][n]; s != 0 {
			self[f] += s
		}
		if open[f] == 0 && t.Total[v][n] != 0 {
			total[f] += t.Total[v][n]
		}
		open[f]++
		path = append(path, f)
	}
	return self, total
}
