package formats_test

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
)

func ExampleDemo() {
	p, _ := formats.Demo("demo:profvis-toy")
	t := analysis.NewTree(p)
	r := t.Roots[0]
	fmt.Println(p.Format, t.Name(r), t.Total[0][r])
	// Output: hprof lib1.Whale.breath 6
}
