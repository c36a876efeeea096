package callgrind

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// layered is a generated callgrind file: 40 layers of 50 functions, each
// calling 4 functions of the next layer (with name compression, as
// callgrind writes), its costs consistent (a call's cost is its share of
// the callee's inclusive cost): 2,000 functions, 7,800 calls, unrolling
// into about 120,000 call paths with a 1% cost threshold for none.
var layered = sync.OnceValue(func() []byte {
	const layers, width, fanout = 40, 50, 4
	r := rand.New(rand.NewSource(1))
	id := func(l, i int) int { return l*width + i + 1 }
	type call struct{ to, n int }
	calls := make([][]call, layers*width+1)
	callers := make([]int64, layers*width+1) // calls into each function
	for l := 0; l+1 < layers; l++ {
		for i := 0; i < width; i++ {
			for k := 0; k < fanout; k++ {
				c := call{id(l+1, r.Intn(width)), 1 + r.Intn(20)}
				calls[id(l, i)] = append(calls[id(l, i)], c)
				callers[c.to] += int64(c.n)
			}
		}
	}
	self := func(f int) int64 { return int64(100 + f%37) }
	incl := make([]int64, layers*width+1)
	for l := layers - 1; l >= 0; l-- {
		for i := 0; i < width; i++ {
			f := id(l, i)
			incl[f] = self(f)
			for _, c := range calls[f] {
				incl[f] += incl[c.to] * int64(c.n) / max(callers[c.to], 1)
			}
		}
	}
	var b strings.Builder
	b.WriteString("# callgrind format\nversion: 1\npositions: line\nevents: Ir\n\nfl=(1) gen.c\n")
	for f := 1; f <= layers*width; f++ {
		fmt.Fprintf(&b, "fn=(%d) f%d\n%d %d\n", f, f, f, self(f))
		for _, c := range calls[f] {
			fmt.Fprintf(&b, "cfn=(%d) f%d\ncalls=%d %d\n+1 %d\n", c.to, c.to, c.n, c.to, incl[c.to]*int64(c.n)/max(callers[c.to], 1))
		}
	}
	return []byte(b.String())
})

// BenchmarkLoadCallgrind reads, and unrolls, the generated file; its
// baseline is BenchmarkReadCallgrind, reading the graph alone.
func BenchmarkLoadCallgrind(b *testing.B) {
	data := layered()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var p *analysis.Profile
	for b.Loop() {
		var err error
		if p, err = analysis.Parse(context.Background(), "layered.out", data, analysis.LoadOptions{Format: "callgrind"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.Samples)), "paths")
}

func BenchmarkReadCallgrind(b *testing.B) {
	data := layered()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(&analysis.Input{Name: "layered.out", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}
