package compaction

// State is a granularity state: how many name elements each call-tree node
// keeps. It is a small value owned by the session; the call tree is never
// touched.
type State struct {
	Level []int32 // per call-tree node id
}
