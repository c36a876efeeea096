package analysis_test

import (
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
)

// BenchmarkNewNames splits the frame names of the generated benchmark
// profile (50k functions), the part of BenchmarkLoadTop that names cost.
func BenchmarkNewNames(b *testing.B) {
	p := gen.Profile(gen.Default())
	b.ReportAllocs()
	for b.Loop() {
		analysis.NewNames(p)
	}
}
