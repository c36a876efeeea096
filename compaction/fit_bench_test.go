package compaction

import "testing"

// BenchmarkFitGen fits the generated 1M-sample profile (genTree) to 200
// nodes from a view at level 2, as fit does when the profile's view is not
// the fully compacted one: Fit compacts at level 1 first. That view has
// about 3.8M nodes already, more than 200, so Fit returns it: the cost is
// the one compaction, and BenchmarkCompactGen in the same run is the
// baseline.
func BenchmarkFitGen(b *testing.B) {
	t := genTree()
	v := Compact(t, NewState(t, 2), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Fit(v, 200, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitBig fits bigTree (1.15M call-tree nodes, JVM-style names) to
// 200 nodes from its fully compacted view, as fit does right after show.
func BenchmarkFitBig(b *testing.B) {
	t := bench1M(b)
	v := Compact(t, NewState(t, 1), 0)
	b.Logf("%d call-tree nodes, %d compacted at level 1", v.Before, v.After)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Fit(v, 200, nil); err != nil {
			b.Fatal(err)
		}
	}
}
