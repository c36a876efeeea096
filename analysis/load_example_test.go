package analysis_test

import (
	"context"
	"fmt"
	"os"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats" // every format
)

func ExampleLoad() {
	p, err := analysis.Load(context.Background(), "pprof/testdata/devirt.pprof", analysis.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	vt := p.ValueTypes[p.DefaultValue]
	fmt.Println(p.Format, len(p.Samples), "samples;", vt.Type, p.Total(p.DefaultValue), vt.Unit)
	_, err = analysis.Load(context.Background(), "pprof/testdata/devirt.pprof", analysis.LoadOptions{Format: "hprof"})
	fmt.Println(err)
	// Output:
	// pprof 28 samples; cpu 7390000000 nanoseconds
	// load pprof/testdata/devirt.pprof: line 57: expected a CPU SAMPLES BEGIN … END table (hprof cpu=samples or cpu=times output) before the end of the file
}

func ExampleParse() {
	p, _ := analysis.Parse(context.Background(), "x.folded", []byte("main;work 3\nmain;idle 1\nmain;work 2\n"), analysis.LoadOptions{})
	fmt.Println(p.Format, p.Stacks.Len(), "stacks", p.Total(0), "samples")
	_, err := analysis.Parse(context.Background(), "y.folded", []byte("main;work 3\nmain;work\n"), analysis.LoadOptions{})
	fmt.Println(err)
	// Output:
	// folded 2 stacks 6 samples
	// y.folded: line 2: expected "frame;frame;... COUNT" (folded stacks), got "main;work"
}

func ExampleLoadSeries() {
	dir, _ := os.MkdirTemp("", "series")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/2.folded", []byte("main;parse 5\n"), 0o644)
	os.WriteFile(dir+"/1.folded", []byte("main;read 3\nmain;parse 1\n"), 0o644)
	p, err := analysis.LoadSeries(context.Background(), dir+"/*.folded", analysis.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Format, p.IntervalNames, p.Intervals, p.Timed)
	// Output: series [1.folded 2.folded] [0 2 3] false
}
