package analysis_test

import (
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
)

// BenchmarkCompare1M is the difference of two generated profiles of one
// million samples each (seeds 1 and 2 of gen.Default) and its call tree:
// what diff BASE NEW computes before compacting. BenchmarkNewTree1M, the
// call tree of one of them, is its baseline.
func BenchmarkCompare1M(b *testing.B) {
	c := gen.Default()
	base := gen.Profile(c)
	c.Seed = 2
	new := gen.Profile(c)
	b.ReportAllocs()
	for b.Loop() {
		d, err := analysis.Compare(analysis.Side{Profile: base, Value: 1}, analysis.Side{Profile: new, Value: 1}, false)
		if err != nil {
			b.Fatal(err)
		}
		analysis.NewTree(d)
	}
}

// BenchmarkNewTree1M is the call tree of one generated profile of one
// million samples: the baseline of BenchmarkCompare1M.
func BenchmarkNewTree1M(b *testing.B) {
	p := gen.Profile(gen.Default())
	b.ReportAllocs()
	for b.Loop() {
		analysis.NewTree(p)
	}
}
