package compaction

import "testing"

// BenchmarkFitGen fits the generated 1M-sample profile (genTree) to 200
// nodes from its fully compacted view, the view a profile has after load
// or show. That view has about 3.8M nodes, more than 200, so Fit returns
// it after reading the levels: compare BenchmarkCompactGen in the same run,
// the compaction the view cost.
func BenchmarkFitGen(b *testing.B) {
	t := genTree()
	v := Compact(t, NewState(t, 1), 1)
	benchFit(b, v)
}

// BenchmarkFitGenRelevel is BenchmarkFitGen from a view at level 2: Fit
// compacts at level 1 first, which is most of its cost.
func BenchmarkFitGenRelevel(b *testing.B) {
	t := genTree()
	benchFit(b, Compact(t, NewState(t, 2), 1))
}

// BenchmarkFitBig fits bigTree (1.15M call-tree nodes, JVM-style names) to
// 200 nodes from its fully compacted view (170k nodes).
func BenchmarkFitBig(b *testing.B) {
	t := bench1M(b)
	benchFit(b, Compact(t, NewState(t, 1), 0))
}

func benchFit(b *testing.B, v *View) {
	b.Logf("%d call-tree nodes, %d compacted", v.Before, v.After)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Fit(b.Context(), v, 200, nil); err != nil {
			b.Fatal(err)
		}
	}
}
