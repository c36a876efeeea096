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

// TestHprofDump: what a user reads of small outputs in hprof's forms (the
// thread ids of cpu=samples,thread=y traces, frames with and without a
// source file, cumulative tables, rows at the edges of the values): the
// profile's facts, its frames' files, its threads, its samples and its
// warnings.
func TestHprofDump(t *testing.T) {
	const traces = "TRACE 1:\n\ta.b(B.java:1)\nTRACE 2:\n\ta.c(C.java:2)\n"
	for _, c := range []struct{ name, in, want string }{
		{"threads", "JAVA PROFILE 1.0.1, created Tue Apr  6 17:20:30 2010\n" +
			"THREAD START (obj=50000150, id = 200001, name=\"main\", group=\"main\")\n" +
			"THREAD START (obj=50000151, id = 200002, name=\"Worker 1\", group=\"main\")\n" +
			"THREAD START (obj=50000152, id = , name=\"no id\", group=\"main\")\n" +
			"TRACE 300001: (thread=200001)\n\ta.Main.main(Main.java:10)\n" +
			"TRACE 300002: (thread=200002)\n\ta.Work.run(Work.java:5)\n\tjava.lang.Thread.run(Thread.java:619)\n" +
			"TRACE 300003: (thread=, name=\"no id\", group=\"main\")\n\ta.Odd.run(Odd.java:1)\n" +
			"CPU SAMPLES BEGIN (total = 6) Tue Apr  6 17:20:40 2010\nrank   self  accum   count trace method\n" +
			"   1 50.00% 50.00%       3 300002 a.Work.run\n   2 33.33% 83.33%       2 300001 a.Main.main\n   3 16.67% 100.00%      1 300003 a.Odd.run\nCPU SAMPLES END\n",
			`format=hprof types=samples/count*=6 period=0 / start=2010-04-06T17:20:30.000000000Z duration=10s timed=false samples=3 threads=2 processes=0
frame "a.Main.main" file="Main.java" line=0
frame "a.Work.run" file="Work.java" line=0
frame "java.lang.Thread.run" file="Thread.java" line=0
frame "a.Odd.run" file="Odd.java" line=0
thread "Worker 1" id="" process="" pid=""
thread "main" id="" process="" pid=""
sample java.lang.Thread.run;a.Work.run [3] @0 "Worker 1"
sample a.Main.main [2] @0 "main"
sample a.Odd.run [1] @0 ""
note: hprof's dates have no time zone (it writes the machine's local time): the start is shown as if it were UTC
`},
		{"frames", "TRACE 1:\n\tsun.awt.windows.WToolkit.eventLoop(<Unknown Source>:Unknown line)\n\tjava.lang.Throwable.fillInStackTrace(Throwable.java:Unknown line)\n" +
			"\tjava.lang.Object.wait(Native Method)\n\t(Unknown Source)\n\ta.b(:12)\n\t<empty>\n" +
			"CPU SAMPLES BEGIN (total = 1) x\n 1 100.00% 100.00% 1 1 a.b\nCPU SAMPLES END\n",
			`format=hprof types=samples/count*=1 period=0 / start=- duration=0s timed=false samples=1 threads=0 processes=0
frame "java.lang.Throwable.fillInStackTrace" file="Throwable.java" line=0
sample a.b;(Unknown Source);java.lang.Object.wait;java.lang.Throwable.fillInStackTrace;sun.awt.windows.WToolkit.eventLoop [1] @0 ""
`},
		{"cumulative tables", traces + "CPU SAMPLES BEGIN (total = 1) x\n 1 100.00% 100.00% 1 1 a.b\nCPU SAMPLES END\n" +
			"CPU SAMPLES BEGIN (total = 3) x\n 1 66.67% 66.67% 2 1 a.b\n 2 33.33% 100.00% 1 2 a.c\nCPU SAMPLES END\n",
			`format=hprof types=samples/count*=3 period=0 / start=- duration=0s timed=false samples=2 threads=0 processes=0
frame "a.b" file="B.java" line=0
frame "a.c" file="C.java" line=0
sample a.b [2] @0 ""
sample a.c [1] @0 ""
warning: 2 CPU SAMPLES BEGIN tables; kept the last (hprof's tables are cumulative)
`},
		{"no samples", "CPU SAMPLES BEGIN (total = 0) x\nrank self accum count trace method\nCPU SAMPLES END\n",
			"format=hprof types=samples/count*=0 period=0 / start=- duration=0s timed=false samples=0 threads=0 processes=0\n"},
		// A row without its method column (the trace gives the stack), a
		// method called 0 times for 0.00%, all the time in one row.
		{"edges of cpu=times rows", traces + "CPU TIME (ms) BEGIN (total = 100) x\n 1 100.00% 100.00% 7 1\n 2 0.00% 100.00% 0 2 a.c\nCPU TIME (ms) END\n",
			`format=hprof types=cpu/nanoseconds*=100000000,calls/count=7 period=0 / start=- duration=0s timed=false samples=2 threads=0 processes=0
frame "a.b" file="B.java" line=0
frame "a.c" file="C.java" line=0
sample a.b [100000000 7] @0 ""
sample a.c [0 0] @0 ""
`},
		// 99.99% listed in 2 rows rounded to 0.01% each is all of it.
		{"rounded percentages", traces + "CPU TIME (ms) BEGIN (total = 100) x\n 1 50.00% 50.00% 1 1 a.b\n 2 49.99% 99.99% 1 2 a.c\nCPU TIME (ms) END\n",
			`format=hprof types=cpu/nanoseconds*=99990000,calls/count=2 period=0 / start=- duration=0s timed=false samples=2 threads=0 processes=0
frame "a.b" file="B.java" line=0
frame "a.c" file="C.java" line=0
sample a.b [50000000 1] @0 ""
sample a.c [49990000 1] @0 ""
`},
	} {
		testprof.WantDump(t, "hprof", c.name, c.in, c.want)
	}
}

// TestHprofErrors: damaged tables give errors naming the line and what was
// expected there.
func TestHprofErrors(t *testing.T) {
	const head = "TRACE 1:\n\ta.b(c.java:1)\nCPU SAMPLES BEGIN (total = 3) x\nrank self accum count trace method\n"
	for _, c := range []struct{ in, want string }{
		{head + " 1 100.00% 100.00% 3 1 a.b\n\nCPU SAMPLES END\n", `in: line 6: expected a row "rank self accum count trace method" or CPU SAMPLES END, got ""`},
		{head + " 1 100.00% 100.00% -3 1 a.b\nCPU SAMPLES END\n", `in: line 5: expected a count in column 4, got "-3"`},
		{head + " 1 100.00% 100.00% 3 2 a.b\nCPU SAMPLES END\n", `in: line 5: expected a trace defined by a TRACE record before the table, got trace "2"`},
		{"TRACE 1:\n\ta.b(c.java:1)\nTRACE 1:\n\ta.b(c.java:1)\n", "in: line 3: expected a new trace number, but trace 1 is defined twice"},
		{"TRACE 99999999999999999999:\n\ta.b(c.java:1)\n", `in: line 1: expected a trace number after TRACE, got "99999999999999999999"`},
		{"TRACE 1:\n\ta.b(c.java:1)\n", "in: line 2: expected a CPU SAMPLES BEGIN … END table (hprof cpu=samples or cpu=times output) before the end of the file"},
		{"CPU SAMPLES BEGIN (total = 1099511627776) x\nCPU SAMPLES END\n", `in: line 1: expected "(total = N)" after CPU SAMPLES BEGIN, N below 2^40, got "CPU SAMPLES BEGIN (total = 1099511627776) x"`},
		{"CPU SAMPLES BEGIN (total = -1) x\nCPU SAMPLES END\n", `in: line 1: expected "(total = N)" after CPU SAMPLES BEGIN, N below 2^40, got "CPU SAMPLES BEGIN (total = -1) x"`},
		{"CPU SAMPLES BEGIN (total = 1099511627775) x\nCPU SAMPLES END\n", "warn: hprof lists 0 of 1099511627775 samples; it left out the traces below its cutoff"},
	} {
		p, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{Format: "hprof"})
		got := ""
		switch {
		case err != nil:
			got = err.Error()
			testprof.CheckError(t, "in", err)
		case len(p.Warnings) > 0:
			got = "warn: " + p.Warnings[0]
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
