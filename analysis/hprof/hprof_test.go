package hprof

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestHprofCutoff: the xfvrp file lists fewer samples than its header total
// (hprof's cutoff); the loader keeps the listed rows and says so.
func TestHprofCutoff(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join(testprof.Corpus(t), "java-hprof", "xfvrp", "java.hprof.txt"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Total(0) != 41825 || len(p.Samples) != 174 {
		t.Errorf("total %d in %d rows, want 41825 in 174", p.Total(0), len(p.Samples))
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "41825 of 42483") {
		t.Errorf("warnings = %q, want the cutoff", p.Warnings)
	}
	top := p.Stacks.At(p.Samples[0].Stack)
	if leaf := p.Frames[top[len(top)-1]].Name; leaf != "xf.xfvrp.opt.improve.XFVRPPathMove.search" || p.Value(&p.Samples[0], 0) != 8432 {
		t.Errorf("rank 1 = %s %d, want XFVRPPathMove.search 8432", leaf, p.Value(&p.Samples[0], 0))
	}
}

// TestHprofTimes: a real cpu=times output (htsjdk's, see testdata/README.md).
// Its CPU TIME table is the oracle: 34 rows whose self percentages add up
// to 100.01% of 433 ms (hprof rounds each to 0.01%) and whose counts add up
// to 12,255 calls (awk over the table); rank 1 is
// ClassLoader.findBootstrapClassOrNull, 15.70% in 8 calls, trace 302066 of
// four frames under sun.misc.Launcher$AppClassLoader.loadClass.
func TestHprofTimes(t *testing.T) {
	name := "testdata/htsjdk-cpu-times.hprof.txt"
	p, err := analysis.Load(context.Background(), name, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	testprof.Check(t, name, p)
	if p.Format != "hprof" || len(p.ValueTypes) != 2 || p.ValueTypes[p.DefaultValue] != (analysis.ValueType{Type: "cpu", Unit: "nanoseconds"}) ||
		p.ValueTypes[1] != (analysis.ValueType{Type: "calls", Unit: "count"}) {
		t.Fatalf("format %s, value types %v (default %d); want hprof, cpu/nanoseconds then calls/count", p.Format, p.ValueTypes, p.DefaultValue)
	}
	if len(p.Samples) != 34 || p.Total(0) != 10001*43300 || p.Total(1) != 12255 || len(p.Warnings) != 0 {
		t.Errorf("%d rows, cpu %d ns, %d calls, warnings %q; want 34, 433043300, 12255, none", len(p.Samples), p.Total(0), p.Total(1), p.Warnings)
	}
	s := &p.Samples[0]
	if got, want := testprof.StackNames(p, s), "sun.misc.Launcher$AppClassLoader.loadClass;java.lang.ClassLoader.loadClass;java.lang.ClassLoader.loadClass;java.lang.ClassLoader.findBootstrapClassOrNull"; got != want || p.Value(s, 0) != 67981000 || p.Value(s, 1) != 8 {
		t.Errorf("rank 1 = %s %v, want %s [67981000 8]", got, p.Values(s), want)
	}
	if p.Duration != time.Second { // created 18:06:01, table 18:06:02
		t.Errorf("duration %v, want 1s", p.Duration)
	}
}

// TestHprofTimesErrors: rows of a cpu=times table are checked like those of
// cpu=samples, and its cutoff is reported.
func TestHprofTimesErrors(t *testing.T) {
	const head = "TRACE 1:\n\ta.b(c.java:1)\nCPU TIME (ms) BEGIN (total = 200) x\nrank self accum count trace method\n"
	for _, c := range []struct{ in, want string }{
		{head + " 1 50.00% 50.00% 3 1 a.b\nCPU TIME (ms) END\n", "warn: hprof lists 50.00% of the 200 ms; it left out the traces below its cutoff"},
		{head + " 1 fifty 50.00% 3 1 a.b\nCPU TIME (ms) END\n", `in: line 5: expected a percentage of the total in column 2, got "fifty"`},
		{head + " 1 50.00% 50.00% 3 1 a.b\n", "in: line 5: expected CPU TIME (ms) END before the end of the file (truncated?)"},
		{"CPU TIME (ms) BEGIN (total = x)\n", `in: line 1: expected "(total = N)" after CPU TIME (ms) BEGIN, N below 2^40, got "CPU TIME (ms) BEGIN (total = x)"`},
	} {
		p, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{Format: "hprof"})
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case len(p.Warnings) > 0:
			got = "warn: " + p.Warnings[0]
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
