package analysis_test

import (
	"fmt"
	"os"
	"regexp"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
)

func ExampleNewInfo() {
	p, err := formats.Demo("profvis-toy")
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
	// note:            hprof's dates have no time zone (it writes the machine's local time): the start is shown as if it were UTC
}

func ExampleNewTop() {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		panic(err)
	}
	top := analysis.NewTop(analysis.NewTree(p), analysis.TopOptions{ByCum: true, N: 4, Hide: regexp.MustCompile(`^lib1\.`)})
	for _, r := range top.Rows {
		fmt.Printf("%-22s flat %d cum %d\n", r.Name, r.Flat, r.Cum)
	}
	fmt.Printf("%d of %d functions, total %d\n", len(top.Rows), top.Count, top.Total)
	// Output:
	// lib2.Lung.inhale       flat 0 cum 6
	// lib2.Nerve.transmit    flat 0 cum 5
	// lib3.Signal.travel     flat 5 cum 5
	// lib2.Muscle.contract   flat 0 cum 4
	// 4 of 7 functions, total 6
}

func ExampleWriteTreeText() {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		panic(err)
	}
	analysis.WriteTreeText(os.Stdout, analysis.NewTree(p), analysis.TreeOptions{Depth: 4, Min: 40})
	// Output:
	//      total      %       self  name
	//          6 100.0%          0  lib1.Whale.breath
	//          6 100.0%          0    lib1.Mammal.inhale
	//          6 100.0%          0      lib2.Lung.inhale
	//          4  66.7%          0        lib2.Muscle.contract [+4]
	//          2  33.3%                   … 3 more below 40%
}

func ExampleFormatValue() {
	fmt.Println(analysis.FormatValue(1730000000, "nanoseconds"), analysis.FormatValue(9968700, "bytes"), analysis.FormatValue(42, "count"))
	// Output:
	// 1.73s 9.51MB 42
}
