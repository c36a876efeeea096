package avid_test

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/avid"
)

// demo:shop under a mapping of four entities: their values and the calls
// between them, exact from the recording's events.
func ExampleNewEntities() {
	p, err := formats.Demo("shop")
	if err != nil {
		panic(err)
	}
	m, err := avid.ParseMapping("shop", "UI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\n")
	if err != nil {
		panic(err)
	}
	e := avid.NewEntities(analysis.NewTree(p), m.Apply(p), p.DefaultValue)
	for i, name := range e.Map.Names {
		fmt.Printf("%-7s self %5d total %5d calls in %d\n", name, e.Self[i], e.Total[i], e.CallsIn[i])
	}
	for _, a := range e.Arcs {
		fmt.Printf("%s → %s: %d (%s)\n", e.Map.Names[a.From], e.Map.Names[a.To], a.Calls, e.Source)
	}
	// Output:
	// UI      self  6000 total 19000 calls in 0
	// Core    self  7000 total 12000 calls in 2
	// DB      self  3000 total  4000 calls in 2
	// JDK     self  2000 total  2000 calls in 2
	// (other) self  1000 total  1000 calls in 1
	// Core → DB: 2 (events)
	// UI → Core: 2 (events)
	// Core → JDK: 1 (events)
	// DB → JDK: 1 (events)
	// UI → (other): 1 (events)
}

// demo:shop thinned by C-2, a snapshot of the stack every 5 events: its
// calls are recovered by stack diffs, and fewer.
func ExampleThin() {
	p, err := formats.Demo("shop")
	if err != nil {
		panic(err)
	}
	th, err := avid.Thin(p, avid.Whole(avid.Sampling{Kind: "C-2", Every: 5}))
	if err != nil {
		panic(err)
	}
	q := th.Profile
	c, _ := analysis.EntryCounts(analysis.NewTree(q))
	var calls int64
	for _, n := range c.Calls {
		calls += n
	}
	fmt.Printf("%d snapshots, %d records of %d, %d entries by %s (of %d calls)\n",
		len(q.Samples), th.Records, avid.RecordSize(p), calls, c.Source, len(p.Calls))
	// Output:
	// 4 snapshots, 16 records of 40, 6 entries by stack-diffs (of 10 calls)
}
