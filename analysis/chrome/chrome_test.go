package chrome

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// twoThreads is a trace with two profiles on two threads whose samples
// interleave in time, one split over two chunks (nodes with parent fields),
// a chunk of an undeclared profile, and unrelated events.
const twoThreads = `[
 {"name":"thread_name","ph":"M","pid":1,"tid":2,"ts":0,"cat":"__metadata","args":{"name":"Main"}},
 {"name":"thread_name","ph":"M","pid":1,"tid":3,"ts":0,"cat":"__metadata","args":{"name":"Worker"}},
 {"name":"RunTask","ph":"X","pid":1,"tid":2,"ts":900,"dur":5,"cat":"toplevel","args":{}},
 {"name":"Profile","ph":"P","pid":1,"tid":2,"ts":1000,"id":"0x1","cat":"v8","args":{"data":{"startTime":1000}}},
 {"name":"Profile","ph":"P","pid":1,"tid":3,"ts":1001,"id":"0x2","cat":"v8","args":{"data":{"startTime":1005}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1100,"id":"0x1","cat":"v8","args":{"data":{
   "cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},
     {"id":2,"callFrame":{"functionName":"f","scriptId":1,"url":"https://a.org/f.js","lineNumber":1,"columnNumber":2},"parent":1}],
   "samples":[2,2]},"timeDeltas":[0,10]}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1200,"id":"0x1","cat":"v8","args":{"data":{
   "cpuProfile":{"nodes":[{"id":3,"callFrame":{"functionName":"g","scriptId":1,"url":"https://a.org/f.js","lineNumber":5,"columnNumber":0},"parent":2}],
   "samples":[3]},"timeDeltas":[10]}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1150,"id":"0x2","cat":"v8","args":{"data":{
   "cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":0}},
     {"id":2,"callFrame":{"functionName":"w","scriptId":2,"url":"https://a.org/w.js","lineNumber":0,"columnNumber":0},"parent":1}],
   "samples":[2,2]},"timeDeltas":[0,20]}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1300,"id":"0x7","cat":"v8","args":{"data":{"timeDeltas":[1]}}}
]`

func TestChromeThreads(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "two.json", []byte(twoThreads), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const f, g, w = "f https://a.org/f.js:2:3", "g https://a.org/f.js:6:1", "w https://a.org/w.js:1:1"
	want := []struct {
		thread, stack string
		time, wall    int64 // µs since the first profile's start
	}{
		{"Main", f, 0, 10},
		{"Worker", w, 5, 20},
		{"Main", f, 10, 10},
		{"Main", f + ";" + g, 20, 0},
		{"Worker", w, 25, 0},
	}
	if p.Format != "chrome" || !p.Timed || len(p.Samples) != len(want) || len(p.Warnings) != 1 {
		t.Fatalf("Parse = format %q, timed %v, %d samples, warnings %q; want chrome, timed, %d samples, one warning",
			p.Format, p.Timed, len(p.Samples), p.Warnings, len(want))
	}
	for i, w := range want {
		s := &p.Samples[i]
		if got := testprof.StackNames(p, s); got != w.stack || p.Thread(s) != w.thread || s.Time != w.time*1000 || p.Value(s, 1) != w.wall*1000 {
			t.Errorf("sample %d = %s %q at %d wall %d, want %s %q at %d wall %d",
				i, p.Thread(s), got, s.Time, p.Value(s, 1), w.thread, w.stack, w.time*1000, w.wall*1000)
		}
	}
}

// TestChromeNoArgData loads a Chrome 141 trace whose first profile has
// chunks without data and whose second profile on the same thread is empty.
func TestChromeNoArgData(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/chrome141-no-arg-data.json", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// MANIFEST.md: 10 ProfileChunk events, 421 samples in chunks; speedscope's
	// snapshot: 2 chunk events lack data.
	if p.Format != "chrome" || len(p.Samples) != 421 || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "skipped 2") {
		t.Errorf("Load = format %q, %d samples, warnings %q; want chrome, 421 samples, 2 events skipped", p.Format, len(p.Samples), p.Warnings)
	}
	for _, th := range testprof.Threads(p) {
		if !strings.HasPrefix(th, "CrRendererMain 0x") {
			t.Errorf("thread %q, want CrRendererMain with its profile id", th)
		}
	}
}

func TestChromeErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"nocpu", `[{"name":"Mark","ph":"I","pid":1,"tid":1,"ts":1}]`, "expected CPU samples (Profile and ProfileChunk, or CpuProfile events), samples with stackFrames, or B/E/X span events; the trace has 1 events"},
		{"args", `[{"name":"Profile","ph":"P","pid":1,"tid":1,"ts":1,"args":{"data":{"startTime":"x"}}}]`, "traceEvents[0] (Profile): args: expected float64 at \"data.startTime\""},
		{"deltas", `{"traceEvents":[{"name":"CpuProfile","ph":"I","pid":1,"tid":1,"ts":1,"args":{"data":{"cpuProfile":{"nodes":[],"samples":[1]}}}}]}`, "profile 1:1: expected one time delta per sample"},
		{"undeclared", `[{"name":"ProfileChunk","ph":"P","pid":1,"tid":1,"ts":1,"id":"0x1","args":{"data":{"timeDeltas":[1]}}}]`, "expected a CPU profile: the trace's 1 events"},
		{"truncated", `{"traceEvents":[{"name":"CpuProfile","ph":"I",`, "byte 46"},
		{"blank", "  \n", "byte 3: expected an array of trace events"},
		{"samples", `{"traceEvents":[],"samples":[{"ts":1,"sf":"9"}],"stackFrames":{}}`, "samples[0]: expected stack frame \"9\" in stackFrames"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := analysis.Parse(context.Background(), c.name+".json", []byte(c.data), analysis.LoadOptions{Format: "chrome"})
			if err == nil || !strings.HasPrefix(err.Error(), c.name+".json: "+c.want) {
				t.Errorf("Parse(%s) error = %v, want %q after the file's name", c.name, err, c.want)
			}
		})
	}
}

// spanTrace has a begin/end pair around two X events that start together:
// the longer one is the outer one.
const spanTrace = `[
 {"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"main"}},
 {"ph":"B","name":"a","ts":100,"pid":1,"tid":7},
 {"ph":"X","name":"b","ts":102,"dur":3,"pid":1,"tid":7},
 {"ph":"X","name":"c","ts":102,"dur":5,"pid":1,"tid":7,"args":{"k":1}},
 {"ph":"E","name":"zzz","ts":108,"pid":1,"tid":7},
 {"ph":"E","name":"a","ts":110,"pid":1,"tid":7}
]`

func TestChromeSpans(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "spans.json", []byte(spanTrace), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a 2 @0", "a;c;b 3 @2", "a;c 2 @5", "a 3 @7"} // µs; the end of zzz is ignored
	var got []string
	for i := range p.Samples {
		s := &p.Samples[i]
		got = append(got, fmt.Sprintf("%s %d @%d", testprof.StackNames(p, s), p.Value(s, 0)/1000, s.Time/1000))
		if p.Thread(s) != "main (pid 1, tid 7)" {
			t.Errorf("sample %d thread %q, want %q", i, p.Thread(s), "main (pid 1, tid 7)")
		}
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") || p.ValueTypes[0] != (analysis.ValueType{Type: "wall", Unit: "nanoseconds"}) || !p.Timed {
		t.Errorf("Parse = %q %v timed %v, want %q wall/nanoseconds timed", got, p.ValueTypes, p.Timed, want)
	}
}

// Spans are kept as calls: exact entries, exits and depths, the end that
// matches no open span ignored.
func TestChromeSpanCalls(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "spans.json", []byte(spanTrace), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Calls {
		got = append(got, fmt.Sprintf("%s [%d,%d] depth %d", testprof.StackNames(p, &analysis.Sample{Stack: c.Stack}), c.Enter/1000, c.Exit/1000, c.Depth))
	}
	want := "a [0,10] depth 0, a;c [2,7] depth 1, a;c;b [2,5] depth 2" // µs
	if strings.Join(got, ", ") != want || len(p.Events) != 6 {
		t.Errorf("calls = %q (%d events), want %s (6 events)", got, len(p.Events), want)
	}
}

// format=chrome-spans reads the spans of a trace that has a CPU profile.
func TestChromeSpansFormat(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "two.json", []byte(twoThreads), analysis.LoadOptions{Format: "chrome-spans"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Calls) != 1 || p.Frames[p.Calls[0].Frame].Name != "RunTask" || p.Calls[0].Exit-p.Calls[0].Enter != 5000 {
		t.Errorf("calls = %+v, want one RunTask of 5 µs", p.Calls)
	}
	_, err = analysis.Parse(context.Background(), "nospans.json", []byte(`[{"name":"Mark","ph":"I","pid":1,"tid":1,"ts":1}]`), analysis.LoadOptions{Format: "chrome-spans"})
	if err == nil || !strings.Contains(err.Error(), "nospans.json: expected B/E/X span events") {
		t.Errorf("Parse of a trace without spans: error %v, want one asking for B/E/X events", err)
	}
}

// The calls of a recording count against max-samples.
func TestChromeCallsLimit(t *testing.T) {
	_, err := analysis.Parse(context.Background(), "spans.json", []byte(spanTrace), analysis.LoadOptions{Limits: analysis.Limits{Samples: 2}})
	var le *analysis.LimitError
	if !errors.As(err, &le) || le.What != "calls" || le.Option != "max-samples" {
		t.Errorf("Parse with max-samples=2 of 3 calls: error %v, want a limit on calls", err)
	}
}

// A CPU profile's thread gets its process's name from process_name
// metadata, and its duration runs from the Profile's startTime to the
// last sample when no chunk gives an endTime; a profile without a
// startTime starts at its first sample.
func TestChromeProcessAndDuration(t *testing.T) {
	trace := `[
 {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"Renderer"}},
 {"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"Main"}},
 {"name":"thread_name","ph":"M","pid":1,"tid":4},
 {"name":"Profile","ph":"P","pid":1,"tid":4,"ts":1000,"id":"0x3","args":{"data":{"startTime":1000}}},
 {"name":"Profile","ph":"P","pid":1,"tid":2,"ts":1000,"id":"0x1","args":{"data":{"startTime":1000}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":1100,"id":"0x1","args":{"data":{
   "cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"callFrame":{"functionName":"f","url":"a.js"},"parent":1}],
   "samples":[2,2,2]},"timeDeltas":[5,10,20]}}},
 {"name":"Profile","ph":"P","pid":1,"tid":3,"ts":1000,"id":"0x2","args":{"data":{}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":3,"ts":1100,"id":"0x2","args":{"data":{
   "cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"callFrame":{"functionName":"g","url":"b.js"},"parent":1}],
   "samples":[2,2]},"timeDeltas":[1040,30]}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":1200,"id":"0x1","args":{"data":{"timeDeltas":[],"endTime":1100}}}
]`
	p, err := analysis.Parse(context.Background(), "pd.json", []byte(trace), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var threads []string
	for _, th := range p.Threads() {
		threads = append(threads, th.Name+" = "+th.Process+"/"+th.PID+"/"+th.ID)
	}
	// 0x1 runs 1000-1100 µs (its last chunk's endTime), 0x2 1040-1070, 0x3
	// (no samples) from 1000: the trace's profiles 1000-1100.
	want := "Main = Renderer/1/2, 1:3 = Renderer/1/3"
	notes := []string{"profile 0x2: the file gives no startTime and no endTime: the duration runs from the first sample to the last"}
	if got := strings.Join(threads, ", "); got != want || p.Duration.Microseconds() != 100 || !slices.Equal(p.Notes, notes) || len(p.Warnings) != 0 {
		t.Errorf("threads %q, duration %v, notes %q, warnings %q; want %q, 100µs, %q, none", got, p.Duration, p.Notes, p.Warnings, want, notes)
	}
}

// A Hermes trace (an array whose first event's args carry Hermes's keys)
// names its frames "fn url:line:col"; a trace-event object with the same
// args is no Hermes trace, and a span without a URL keeps its name.
func TestChromeHermes(t *testing.T) {
	const ev = `{"ph":"X","name":"%s","ts":%d,"dur":5,"pid":1,"tid":1,"args":{"line":%d,"column":3,"name":"%s","category":"JavaScript","url":"%s","params":"","allocatedCategory":"JavaScript","allocatedName":"%s"}}`
	first := fmt.Sprintf(ev, "render", 0, 12, "render", "app.js", "render")
	second := fmt.Sprintf(ev, "native", 10, 0, "native", "", "native")
	for _, c := range []struct{ data, want string }{
		{"[" + first + "," + second + "]", "native render app.js:12:3"},
		{`{"traceEvents":[` + first + "," + second + "]}", "native render"},
	} {
		p, err := analysis.Parse(context.Background(), "h.json", []byte(c.data), analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range p.Frames {
			names = append(names, f.Name)
		}
		slices.Sort(names)
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("frames %q, want %q", got, c.want)
		}
	}
}

// The trace-event format's own sampling: each sample names its leaf in
// stackFrames (parents give the stack) and weighs the time to its thread's
// next sample; the last sample of a thread weighs nothing. A frame that is
// its own ancestor is an error.
func TestChromeTraceSamples(t *testing.T) {
	trace := `{"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"w"}}],
 "stackFrames":{"1":{"name":"main","category":"c"},"2":{"name":"f","category":"c","parent":"1"},"3":{"name":"g","category":"c","parent":2}},
 "samples":[{"ts":"100","pid":1,"tid":1,"sf":"2"},{"ts":103,"pid":1,"tid":2,"sf":3},{"ts":104,"pid":1,"tid":1,"sf":"1"},{"ts":110,"pid":1,"tid":1,"sf":"3"},{"ts":111,"pid":1,"tid":2,"sf":"1"}]}`
	p, err := analysis.Parse(context.Background(), "s.json", []byte(trace), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range p.Samples {
		s := &p.Samples[i]
		got = append(got, fmt.Sprintf("%s %s %d @%d", p.Thread(s), testprof.StackNames(p, s), p.Value(s, 0)/1000, s.Time/1000))
	}
	want := []string{"pid 1, tid 1 main;f 4 @0", "w (pid 1, tid 2) main;f;g 8 @3", "pid 1, tid 1 main 6 @4", "pid 1, tid 1 main;f;g 0 @10", "w (pid 1, tid 2) main 0 @11"}
	if !slices.Equal(got, want) {
		t.Errorf("samples\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, err = analysis.Parse(context.Background(), "loop.json", []byte(`{"traceEvents":[],"stackFrames":{"1":{"name":"a","parent":"2"},"2":{"name":"b","parent":"1"}},"samples":[{"ts":1,"sf":"1"}]}`), analysis.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `loop.json: samples[0]: stack frame "1" is its own ancestor`) {
		t.Errorf("a loop of stack frames: error %v", err)
	}
}

// Hermes is recognised by the file's first event, whatever its time; an
// array cut before its closing bracket (a crash) is read to its end.
func TestChromeFirstEventAndCut(t *testing.T) {
	hermes := `[{"ph":"X","name":"f","ts":10,"dur":1,"pid":1,"tid":1,"args":{"line":2,"column":1,"name":"f","category":"JS","url":"a.js","params":"","allocatedCategory":"JS","allocatedName":"f"}},
 {"ph":"X","name":"g","ts":0,"dur":1,"pid":1,"tid":1,"args":{}}`
	for _, c := range []struct{ name, data string }{{"closed", hermes + "]"}, {"cut", hermes + ",\n"}} {
		p, err := analysis.Parse(context.Background(), c.name, []byte(c.data), analysis.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var names []string
		for _, f := range p.Frames {
			names = append(names, f.Name)
		}
		slices.Sort(names)
		if got := strings.Join(names, ", "); got != "f a.js:2:1, g" {
			t.Errorf("%s: frames %q, want the Hermes name of f", c.name, got)
		}
	}
}
