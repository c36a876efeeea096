package phase_test

import (
	"context"
	"fmt"

	"github.com/proflens/proflens/phase"
)

// Two kinds of work, an idle stretch, and the first kind again: JIVE finds
// phase 1, the second kind as phase 3, the empty phase 0, and phase 1
// returning. The one-interval transition phase 2 marks the direct switch,
// where a window holds both kinds.
func ExampleDetect() {
	a, b, idle := []float64{9, 1, 0}, []float64{0, 1, 9}, []float64{0, 0, 0}
	v := &phase.Vectors{Names: []string{"parse", "runtime", "sort"}}
	for i, row := range [][]float64{a, a, a, a, b, b, b, b, idle, idle, idle, idle, a, a, a} {
		v.Append(phase.Interval{Start: int64(i) * 1e8, End: int64(i+1) * 1e8}, 10, row)
	}
	r, err := phase.Detect(context.Background(), v, phase.DefaultParams(), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Of)
	for _, ph := range r.Phases {
		fmt.Println(ph.ID, ph.Color, ph.Intervals)
	}
	// Output:
	// [1 1 1 1 2 2 2 2 2 2 0 0 1 1 1]
	// 0 #d9d9d9 2
	// 1 #e63939 7
	// 2 #8f39e6 6
}

// JIVE's colour sequence: red, violet, then bisection of the hue range.
func ExampleHue() {
	for id := 1; id <= 6; id++ {
		fmt.Print(phase.Hue(id), " ")
	}
	fmt.Println()
	// Output: 0 1 0.5 0.25 0.75 0.125
}
