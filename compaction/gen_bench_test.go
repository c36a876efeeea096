package compaction

import (
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
)

// genTree is the call tree of the generated 1M-sample profile (gen.Default,
// the speed target): about 4-5M call-tree nodes with Go-style names.
var genTree = sync.OnceValue(func() *analysis.Tree {
	return analysis.NewTree(gen.Profile(gen.Default()))
})

// BenchmarkCompactGen computes the fully compacted view (level 1, what
// `show` draws first) of the generated 1M-sample profile. Building the
// profile, the tree and the state's name index is outside the timed loop.
func BenchmarkCompactGen(b *testing.B) {
	t := genTree()
	s := NewState(t, 1)
	v := Compact(t, s, 1)
	b.Logf("%d call-tree nodes, %d compacted nodes", v.Before, v.After)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Compact(t, s, 1)
	}
}

// BenchmarkNewStateGen interns the compacted names and call-path hashes of
// the generated 1M-sample profile's tree: the other half of what the first
// `show` on a newly loaded profile waits for.
func BenchmarkNewStateGen(b *testing.B) {
	t := genTree()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		NewState(t, 1)
	}
}

// BenchmarkCompactGenFull is BenchmarkCompactGen with full names (level
// 99): no name merges siblings' subtrees, so nearly every call-tree node is
// a compacted node of its own.
func BenchmarkCompactGenFull(b *testing.B) {
	t := genTree()
	s := NewState(t, 99)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Compact(t, s, 1)
	}
}
