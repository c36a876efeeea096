package analysis_test

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

func ExampleNewInfo() {
	p, err := analysis.Demo("profvis-toy")
	if err != nil {
		panic(err)
	}
	fmt.Print(analysis.NewInfo(p, analysis.NewTree(p)))
	// Output:
	// source:          demo:profvis-toy
	// format:          hprof
	// value types:     samples/count (default)
	// total:           samples 6
	// samples:         3
	// distinct stacks: 3
	// frames:          9
	// call-tree nodes: 11
	// max depth:       6
	// start:           2010-04-06T17:20:40Z
	// time-ordered:    no
}
