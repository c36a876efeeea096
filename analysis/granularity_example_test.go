package analysis_test

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// A function sampled at two of its lines is one row at functions and two
// at lines, named as go tool pprof names them.
func ExampleProfile_At() {
	b := analysis.NewBuilder("example", analysis.ValueType{Type: "samples", Unit: "count"})
	main := b.Frame(analysis.Frame{Name: "main.main", File: "/src/main.go", Line: 9})
	for _, s := range []struct{ line, n int64 }{{12, 3}, {14, 1}} {
		f := b.Frame(analysis.Frame{Name: "main.work", File: "/src/work.go", Line: s.line})
		b.Add(b.Stack([]int32{main, f}), []int64{s.n}, 0, false, "", nil)
	}
	p := b.Finish().At(analysis.Functions)
	for _, g := range []analysis.Granularity{analysis.Functions, analysis.Lines, analysis.Files} {
		top := analysis.NewTop(analysis.NewTree(p.At(g)), analysis.TopOptions{})
		fmt.Println(g)
		for _, r := range top.Rows {
			fmt.Printf("  %d %d %s\n", r.Flat, r.Cum, r.Name)
		}
	}
	// Output:
	// functions
	//   4 4 main.work
	//   0 4 main.main
	// lines
	//   3 3 main.work /src/work.go:12
	//   1 1 main.work /src/work.go:14
	//   0 4 main.main /src/main.go:9
	// files
	//   4 4 /src/work.go
	//   0 4 /src/main.go
}
