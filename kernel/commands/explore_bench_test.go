package commands

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
	"github.com/proflens/proflens/kernel"
)

// bigProfile is a generated profile whose call tree has over a million
// nodes, JVM-style names (package.Class.method) in 300 packages of 12
// classes of 8 methods; callees stay in their caller's class half of the
// time, in its package 30% of the time, and jump elsewhere otherwise, on a
// random recursive tree (depths around 15, a bushy top).
var bigProfile = sync.OnceValue(func() *analysis.Profile {
	const n = 1_150_000
	r := rand.New(rand.NewPCG(7, 7))
	b := analysis.NewBuilder("bench", analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	b.Profile().Lang = analysis.LangJVM
	type meth struct{ pkg, class, method int }
	parent, who, leaf := make([]int32, n), make([]meth, n), make([]bool, n)
	for i := range n {
		leaf[i] = true
		if i == 0 {
			parent[i] = -1
			continue
		}
		p := int32(r.IntN(i))
		parent[i], leaf[p] = p, false
		m := who[p]
		switch x := r.IntN(10); {
		case x < 5:
			m.method = r.IntN(8)
		case x < 8:
			m.class, m.method = r.IntN(12), r.IntN(8)
		default:
			m = meth{r.IntN(300), r.IntN(12), r.IntN(8)}
		}
		who[i] = m
	}
	frames := map[meth]int32{}
	frame := func(m meth) int32 {
		f, ok := frames[m]
		if !ok {
			f = b.Frame(analysis.Frame{Name: fmt.Sprintf("p%d.C%d.m%d", m.pkg, m.class, m.method)})
			frames[m] = f
		}
		return f
	}
	var path []int32
	for i := range n {
		if !leaf[i] && r.IntN(4) > 0 {
			continue
		}
		path = path[:0]
		for v := int32(i); v >= 0; v = parent[v] {
			path = append(path, frame(who[v]))
		}
		for a, z := 0, len(path)-1; a < z; a, z = a+1, z-1 {
			path[a], path[z] = path[z], path[a]
		}
		b.Add(b.Stack(path), []int64{int64(1+r.IntN(100)) * 1e6}, 0, false, "", nil)
	}
	return b.Finish()
})

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
