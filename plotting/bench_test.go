package plotting

import (
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/compaction"
)

// bigViews compacts the 1M-sample generated profile (gen.Default) at
// package level (the default view) and with full names (the largest).
var bigViews = sync.OnceValue(func() map[string]*compaction.View {
	p := gen.Profile(gen.Default())
	t := analysis.NewTree(p)
	return map[string]*compaction.View{
		"level1":  compaction.Compact(t, compaction.NewState(t, 1), p.DefaultValue),
		"level99": compaction.Compact(t, compaction.NewState(t, 99), p.DefaultValue),
	}
})

func benchDraw(b *testing.B, view string, o Options) {
	v := bigViews()[view]
	b.ReportAllocs()
	var pic *Picture
	for b.Loop() {
		var err error
		if pic, err = Draw(v, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(pic.SVG)), "svg-bytes")
	b.ReportMetric(float64(pic.Drawn), "drawn")
	b.ReportMetric(float64(len(v.Nodes)), "view-nodes")
}

func BenchmarkShow1M(b *testing.B) {
	for _, view := range []string{"level1", "level99"} {
		b.Run(view+"/radial", func(b *testing.B) { benchDraw(b, view, Options{Layout: LayoutRadial}) })
		b.Run(view+"/tree", func(b *testing.B) { benchDraw(b, view, Options{Layout: LayoutTree}) })
	}
}

func BenchmarkFlame1M(b *testing.B) {
	for _, view := range []string{"level1", "level99"} {
		b.Run(view+"/flame", func(b *testing.B) { benchDraw(b, view, Options{Layout: LayoutFlame}) })
		b.Run(view+"/inverted", func(b *testing.B) { benchDraw(b, view, Options{Layout: LayoutFlame, Inverted: true}) })
	}
}

// BenchmarkBaselineCompact1M is the baseline for the two above: computing
// the package-level view of the same profile, which the session caches and
// every picture starts from.
func BenchmarkBaselineCompact1M(b *testing.B) {
	t := bigViews()["level1"].Tree
	s := compaction.NewState(t, 1)
	b.ReportAllocs()
	for b.Loop() {
		compaction.Compact(t, s, t.Profile.DefaultValue)
	}
}
