package pprof_test

import (
	"context"
	"os"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
	_ "github.com/proflens/proflens/analysis/pprof"
)

// BenchmarkLoadGenerated loads the speed benchmark's profile (1M samples,
// ~120k stacks, 50k functions, depth 40), generated once into the temp dir.
func BenchmarkLoadGenerated(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analysis.Load(context.Background(), path, analysis.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
