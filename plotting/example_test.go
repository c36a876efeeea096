package plotting_test

import (
	"fmt"
	"regexp"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/plotting"
)

// Draw the ProfVis toy at package level (the paper's Figure 6) as an icicle;
// the text form is what a notebook shows as text/plain.
func ExampleDraw() {
	p, _ := formats.Demo("profvis-toy")
	t := analysis.NewTree(p)
	v := compaction.Compact(t, compaction.NewState(t, 1), p.DefaultValue)
	pic, err := plotting.Draw(v, plotting.Options{Layout: plotting.LayoutFlame})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d nodes drawn, %d folded, SVG %v\n", pic.Drawn, pic.Folded, len(pic.SVG) < plotting.DefaultMaxBytes)
	// Output:
	// 3 nodes drawn, 0 folded, SVG true
}

// Ring radii of a four-ring fan: equal areas, so thinner outwards.
func ExampleRing() {
	for d := 0; d < 4; d++ {
		r0, r1 := plotting.Ring(d, 4, 400)
		fmt.Printf("ring %d: %.1f to %.1f\n", d, r0, r1)
	}
	// Output:
	// ring 0: 0.0 to 200.0
	// ring 1: 200.0 to 282.8
	// ring 2: 282.8 to 346.4
	// ring 3: 346.4 to 400.0
}

func ExampleAmount() {
	fmt.Println(plotting.Amount(1_500_000_000, analysis.ValueType{Type: "cpu", Unit: "nanoseconds"}))
	fmt.Println(plotting.Amount(3<<20, analysis.ValueType{Type: "alloc_space", Unit: "bytes"}))
	fmt.Println(plotting.Amount(6, analysis.ValueType{Type: "samples", Unit: "count"}))
	fmt.Println(plotting.Amount(1, analysis.ValueType{Type: "samples", Unit: "count"}))
	fmt.Println(plotting.Amount(1, analysis.ValueType{Type: "contentions", Unit: "count"}))
	// Output:
	// 1.50s
	// 3MB
	// 6 samples
	// 1 sample
	// 1 contention
}

// The layouts are pure functions of a selection: here the widths of the
// icicle of Figure 10, where lib2 is compacted to its package.
func ExampleFlame() {
	p, _ := formats.Demo("profvis-toy")
	t := analysis.NewTree(p)
	s, _, _ := compaction.NewState(t, 99).SetLevel(t, 1, regexp.MustCompile(`^lib2\.`))
	pic, _ := plotting.Select(compaction.Compact(t, s, p.DefaultValue), plotting.Options{Layout: plotting.LayoutFlame})
	for _, r := range plotting.Flame(pic, 600, 10) {
		it := pic.Items[r.Item]
		fmt.Printf("%-20s x=%5.1f w=%5.1f depth %d\n", it.Name, r.X, r.W, it.Depth)
	}
	// Output:
	// lib1.Whale.breath    x=  0.0 w=600.0 depth 0
	// lib1.Mammal.inhale   x=  0.0 w=600.0 depth 1
	// lib2                 x=  0.0 w=600.0 depth 2
	// lib3.Pressure.foo    x=  0.0 w=100.0 depth 3
	// lib3.Blood.flow      x=  0.0 w=100.0 depth 4
	// lib3.Signal.travel   x=100.0 w=500.0 depth 3
}

// The kinds of picture of a compacted tree, the default first.
func ExampleKinds() {
	fmt.Println(plotting.Kinds())
	// Output:
	// [radial tree flame blueprint sandwich diff]
}
