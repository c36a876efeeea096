package analysis_test

import (
	"context"
	"os"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
)

// BenchmarkLoadTop is the speed target: load the generated pprof
// file (1M samples, ~120k stacks, 50k functions, depth 40), build the call
// tree and compute top n=10. The file is generated once into the temporary
// directory. Run with -benchtime=1x: one iteration takes seconds.
func BenchmarkLoadTop(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		top := analysis.NewTop(analysis.NewTree(p), analysis.TopOptions{Value: p.DefaultValue, N: 10})
		if len(top.Rows) != 10 {
			b.Fatalf("top has %d rows, want 10", len(top.Rows))
		}
	}
}

// BenchmarkTop is top n=10 alone on the generated profile's call tree.
func BenchmarkTop(b *testing.B) {
	p := gen.Profile(gen.Default())
	t := analysis.NewTree(p)
	b.ReportAllocs()
	for b.Loop() {
		analysis.NewTop(t, analysis.TopOptions{Value: p.DefaultValue, N: 10})
	}
}
