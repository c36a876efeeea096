package gen

import (
	"fmt"
	"math/rand/v2"

	"github.com/proflens/proflens/analysis"
)

// JVM is a generated profile whose call tree has about n nodes, with
// JVM-style names (package.Class.method; a third of the packages two
// levels deep, "org.pN"): 300 packages of 12 classes of 8 methods. A
// callee stays in its caller's class half of the time, in its package 30%
// of the time, and jumps to another package otherwise; the shape is a
// random recursive tree, so depths are around 15 and the top is bushy.
// Every leaf and a quarter of the inner nodes end a sample of 1 to 100 ms.
// Same n and seed, same profile.
func JVM(n int, seed uint64) *analysis.Profile {
	r := rand.New(rand.NewPCG(seed, seed))
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
		if f, ok := frames[m]; ok {
			return f
		}
		pkg := fmt.Sprintf("p%d", m.pkg)
		if m.pkg%3 == 0 {
			pkg = fmt.Sprintf("org.p%d", m.pkg)
		}
		f := b.Frame(analysis.Frame{Name: fmt.Sprintf("%s.C%d.m%d", pkg, m.class, m.method)})
		frames[m] = f
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
}
