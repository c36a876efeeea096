package folded

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestDeepLine: one line "a;a;…;a 1" of 50M frames (100 MB; a slice of its
// frame names alone would take 800 MB) is refused by the default max-depth
// before the line is even copied.
func TestDeepLine(t *testing.T) {
	testprof.Bounded(t, 400<<20, func(t *testing.T) {
		first := "main;f 1\n"
		data := make([]byte, 0, len(first)+100_000_004)
		data = append(data, first...)
		for range 50_000_000 {
			data = append(data, "a;"...)
		}
		data = append(data, "a 1\n"...)
		_, err := analysis.Parse(context.Background(), "deep.folded", data, analysis.LoadOptions{})
		testprof.WantLimit(t, err, "max-depth")
		// As the first line, it is copied once (the line decides the value types).
		_, err = analysis.Parse(context.Background(), "deep1.folded", data[len(first):], analysis.LoadOptions{})
		testprof.WantLimit(t, err, "max-depth")
	})
}

// TestManyFunctions: 250,000 distinct functions pass max-frames=200k; the
// load is refused with the limit's memory only (the default, 2M, is
// measured the same way in the commit that set it, not here: it takes
// seconds).
func TestManyFunctions(t *testing.T) {
	testprof.Bounded(t, 300<<20, func(t *testing.T) {
		var b bytes.Buffer
		for i := range 250_000 {
			fmt.Fprintf(&b, "main;f%d 1\n", i)
		}
		_, err := analysis.Parse(context.Background(), "wide.folded", b.Bytes(), analysis.LoadOptions{Limits: analysis.Limits{Frames: 200_000}})
		testprof.WantLimit(t, err, "max-frames")
	})
}

// TestDepthLimit: a stack of exactly max-depth frames loads, one more is
// refused.
func TestDepthLimit(t *testing.T) {
	opts := analysis.LoadOptions{Format: "folded", Limits: analysis.Limits{Depth: 3}}
	p, err := analysis.Parse(context.Background(), "in", []byte("a;b;c 1\n"), opts)
	if err != nil || len(p.Stacks.At(p.Samples[0].Stack)) != 3 {
		t.Fatalf("Parse(a;b;c) = %v, %v; want 3 frames", p, err)
	}
	_, err = analysis.Parse(context.Background(), "in", []byte("a;b;c 1\na;b;c;d 1\n"), opts)
	testprof.WantLimit(t, err, "max-depth")
}
