package perf

import (
	"context"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// BenchmarkLoadPerf loads FlameGraph's example perf script (3.1 MB raw).
func BenchmarkLoadPerf(b *testing.B) {
	path := testprof.CorpusFile(b, "flamegraph/example-perf-stacks.txt.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analysis.Load(context.Background(), path, analysis.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
