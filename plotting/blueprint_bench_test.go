package plotting

import (
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/blueprint"
)

// BenchmarkBlueprint1M makes the boxes of the 1M-sample generated profile's
// views (every call-tree node counted once: the generated profile has no
// counts of its own), finds their patterns and draws them; its baseline is
// BenchmarkFlame1M, the icicle of the same views.
func BenchmarkBlueprint1M(b *testing.B) {
	for _, view := range []string{"level1", "level99"} {
		b.Run(view, func(b *testing.B) {
			v := bigViews()[view]
			c := analysis.Counts{Source: analysis.CountEvents, Calls: make([]int64, v.Tree.Len())}
			for i := range c.Calls {
				c.Calls[i] = 1
			}
			b.ReportAllocs()
			var pic *Picture
			for b.Loop() {
				boxes := blueprint.Of(v, c, nil, nil, blueprint.ByFunction)
				bp := &Blueprint{Boxes: boxes, Patterns: boxes.Patterns(blueprint.DefaultPatternOptions)}
				var err error
				if pic, err = Draw(v, Options{Layout: LayoutBlueprint, Blueprint: bp}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(pic.SVG)), "svg-bytes")
			b.ReportMetric(float64(pic.Drawn), "drawn")
		})
	}
}
