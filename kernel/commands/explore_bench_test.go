package commands

import (
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/internal/testtool"
	"github.com/proflens/proflens/kernel"
)

// bigProfile is gen.JVM's profile of 1.15 million call-tree nodes.
var bigProfile = sync.OnceValue(func() *analysis.Profile { return gen.JVM(1_150_000, 7) })

// BenchmarkClick1M measures a click on the radial view of a profile of
// over a million call-tree nodes, answered as the kernel answers it: the
// step it stands for (expand, which recompacts the tree) and the redraw
// (show). Its baseline, in the same run, is the redraw alone: show of the
// same view. Clicks alternate between expanding the heaviest root and the
// breadcrumb back to the start, which puts the levels back, so every
// iteration steps.
func BenchmarkClick1M(b *testing.B) {
	p := bigProfile()
	t := analysis.NewTree(p)
	if t.Len() < 1_000_000 {
		b.Fatalf("the generated tree has %d nodes, want at least 1M", t.Len())
	}
	s := kernel.NewSession(b.TempDir(), testTable())
	s.Add(kernel.NewLoaded("big", p, t))
	in := kernel.NewInterp(s)
	m, _ := explored(b, in, "show big interactive=true")
	b.Run("redraw", func(b *testing.B) {
		b.ReportAllocs()
		testtool.Loop(b, func() {
			if _, err := in.Run(b.Context(), "show big", &kernel.Recorder{}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("step+redraw", func(b *testing.B) {
		b.ReportAllocs()
		back := false
		testtool.Loop(b, func() {
			v, err := s.Get("big").CompactedView(b.Context())
			if err != nil {
				b.Fatal(err)
			}
			if back {
				send(m, map[string]any{"event": "crumb", "index": 0.0})
			} else {
				send(m, map[string]any{"event": "click", "id": "r-" + v.Handle(v.Roots[0])})
			}
			if e := m.state["error"]; e != "" {
				b.Fatalf("click: %v", e)
			}
			back = !back
		})
	})
}
