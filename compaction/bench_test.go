package compaction

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
)

// bigTree is gen.JVM's call tree of 1.15 million nodes.
var bigTree = sync.OnceValue(func() *analysis.Tree { return analysis.NewTree(gen.JVM(1_150_000, 7)) })

func bench1M(b *testing.B) *analysis.Tree {
	t := bigTree()
	if t.Len() < 1_000_000 {
		b.Fatalf("generated tree has %d nodes, want at least 1M", t.Len())
	}
	return t
}

// BenchmarkWalk1M is the floor: one pass computing every node's compacted
// name (as an interned id) at level 2, the pass any view needs. It reads
// the levels from one flat array, the fastest form of the pass (a state
// keeps them in pages, which a walk reads a little slower).
func BenchmarkWalk1M(b *testing.B) {
	t := bench1M(b)
	s := NewState(t, 2)
	ix, level := s.index(t), s.Levels()
	cn := make([]int32, t.Len())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for n, f := range t.Frame {
			cn[n] = ix.cname(f, level[n])
		}
	}
}

// BenchmarkCompact1M computes the whole compacted tree at level 2.
func BenchmarkCompact1M(b *testing.B) {
	t := bench1M(b)
	s := NewState(t, 2)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Compact(t, s, 0)
	}
}

// BenchmarkExpand1M is one ProfVis expand: from the fully compacted view
// (level 1, the paper's starting point), expand the heaviest child of the
// heaviest root, checking R1 and R2 on the result. On the generated tree
// that view has about 170k nodes and the target about 16k members; the step
// regroups 53k call-tree nodes into 13.9k groups, of which 7.2k are new
// compacted nodes and 6.7k are old subtrees kept whole under a new parent,
// and shares the other nodes with the view before it. Compare it with
// BenchmarkWalk1M in the same run.
func BenchmarkExpand1M(b *testing.B) {
	t := bench1M(b)
	v := Compact(t, NewState(t, 1), 0)
	target := v.Nodes[v.Roots[0]].Children[0]
	b.Logf("%d call-tree nodes, %d compacted; expanding %s (%d members)", v.Before, v.After, v.Path(target), len(v.Nodes[target].Members))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Step(v, target, +1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOracle300 compares the literal take-over oracle with Compact on
// 300-node trees.
func BenchmarkOracle300(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	specs := randomSpecs(r, 300, 3)
	for len(specs) < 300 {
		specs = randomSpecs(r, 300, 3)
	}
	for i := range specs { // a fourth element keeps every node apart
		specs[i].name += fmt.Sprintf(".n%d", i)
	}
	t, _ := build(specs)
	if t.Len() != 300 {
		b.Fatalf("tree has %d nodes, want 300", t.Len())
	}
	s := NewState(t, 2)
	level := s.Levels()
	b.Run("literal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			literalComponents(t, level)
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Compact(t, s, 0)
		}
	})
}

// BenchmarkFirstStep1M is BenchmarkExpand1M's step on a view just made:
// each iteration compacts the tree anew (not timed) and times one expand
// on it, so no step profits from an earlier one's work or memory. Run with
// -benchtime=1x in a fresh process, it times the first step of a session.
func BenchmarkFirstStep1M(b *testing.B) {
	t := bench1M(b)
	s := NewState(t, 1)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		v := Compact(t, s, 0)
		target := v.Nodes[v.Roots[0]].Children[0]
		b.StartTimer()
		if _, _, err := Step(v, target, +1); err != nil {
			b.Fatal(err)
		}
	}
}
