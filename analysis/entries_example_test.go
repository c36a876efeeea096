package analysis_test

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// An evented recording made with Enter and Exit: main calls f twice, and f
// calls g the first time. Its entry counts are exact.
func ExampleEntryCounts() {
	b := analysis.NewBuilder("example", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	main, f, g := b.Frame(analysis.Frame{Name: "main"}), b.Frame(analysis.Frame{Name: "f"}), b.Frame(analysis.Frame{Name: "g"})
	b.Enter("", main, 0)
	b.Enter("", f, 10)
	b.Enter("", g, 20)
	b.Exit("", 30)
	b.Exit("", 40)
	b.Enter("", f, 50)
	b.Exit("", 60)
	b.Exit("", 70)
	t := analysis.NewTree(b.Finish())
	c, _ := analysis.EntryCounts(t)
	fmt.Println("source:", c.Source)
	for n := range int32(t.Len()) {
		fmt.Printf("%*s%s %d\n", 2*t.Depth[n], "", t.Name(n), c.Calls[n])
	}
	// Output:
	// source: events
	// main 1
	//   f 2
	//     g 1
}
