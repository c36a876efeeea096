package testprof

import (
	"math/rand"

	"github.com/proflens/proflens/analysis"
)

// Random builds a profile of n samples over stacks drawn from a small
// alphabet of functions, with recursion, two value types (samples/count,
// cpu/nanoseconds) and some negative and zero values. label, when not nil,
// gives sample i its thread and labels.
func Random(r *rand.Rand, n int, label func(i int) (thread string, labels map[string][]string)) *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"}, analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	names := []string{"main.main", "main.run", "pkg.A.f", "pkg.B.g", "lib.h", "lib.k", "runtime.x"}
	files := []string{"main.go", "a.go", "b.go"}
	for i := 0; i < n; i++ {
		depth := r.Intn(8)
		var st []int32
		for d := 0; d < depth; d++ {
			f := analysis.Frame{Name: names[r.Intn(len(names))], File: files[r.Intn(len(files))], Line: int64(r.Intn(3))}
			st = append(st, b.Frame(f))
		}
		v := int64(r.Intn(5))
		if r.Intn(20) == 0 {
			v = -v
		}
		var thread string
		var labels map[string][]string
		if label != nil {
			thread, labels = label(i)
		}
		b.Add(b.Stack(st), []int64{v, v * 1000}, 0, false, thread, labels)
	}
	return b.Finish()
}

// Abs returns a copy of p whose values are absolute: the same frames,
// stacks, threads and labels.
func Abs(p *analysis.Profile) *analysis.Profile {
	b := analysis.NewBuilder(p.Format, p.ValueTypes...)
	for _, f := range p.Frames {
		b.Frame(f)
	}
	for _, st := range p.Stacks.All() {
		b.Stack(st)
	}
	values := make([]int64, len(p.ValueTypes))
	for i := range p.Samples {
		s := &p.Samples[i]
		for v, x := range p.Values(s) {
			values[v] = max(x, -x)
		}
		b.Add(s.Stack, values, s.Time, p.Timed, p.Thread(s), p.Labels(s))
	}
	q := b.Finish()
	q.DefaultValue = p.DefaultValue
	return q
}
