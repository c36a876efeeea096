package v8

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// placementProfile exercises V8's pseudo-frames: garbage collection,
// "(program)" and "(idle)" are children of the root, and stay roots; an
// unknown node id keeps the previous stack, and a negative delta is clamped.
const placementProfile = `{"nodes":[
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3,4,5]},
 {"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"file:///app/main.js","lineNumber":0,"columnNumber":0},"children":[6]},
 {"id":3,"callFrame":{"functionName":"(program)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
 {"id":4,"callFrame":{"functionName":"(garbage collector)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
 {"id":5,"callFrame":{"functionName":"(idle)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
 {"id":6,"callFrame":{"functionName":"work","scriptId":"1","url":"file:///app/main.js","lineNumber":4,"columnNumber":2}}],
 "startTime":5000,"endTime":5400,
 "samples":[6,4,3,6,5,2,7,6],
 "timeDeltas":[100,10,20,30,40,50,60,-5]}`

func TestV8Placement(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "placement.cpuprofile", []byte(placementProfile), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const main, work = "main file:///app/main.js:1:1", "work file:///app/main.js:5:3"
	want := []struct {
		stack      string
		wall, time int64 // µs
	}{
		{main + ";" + work, 10, 100},
		{"(garbage collector)", 20, 110},
		{"(program)", 30, 130},
		{main + ";" + work, 40, 160},
		{"(idle)", 50, 200},
		{main, 60, 250},
		{main, 0, 310}, // unknown node 7: the previous stack
		{main + ";" + work, 0, 310},
	}
	if p.Format != "v8" || p.Lang != analysis.LangJS || !p.Timed || len(p.Samples) != len(want) {
		t.Fatalf("Parse = format %q, lang %v, timed %v, %d samples; want v8, js, timed, %d", p.Format, p.Lang, p.Timed, len(p.Samples), len(want))
	}
	for i, w := range want {
		s := &p.Samples[i]
		if got := testprof.StackNames(p, s); got != w.stack || p.Value(s, 0) != 1 || p.Value(s, 1) != w.wall*1000 || s.Time != w.time*1000 {
			t.Errorf("sample %d = %q count %d wall %d at %d, want %q count 1 wall %d at %d",
				i, got, p.Value(s, 0), p.Value(s, 1), s.Time, w.stack, w.wall*1000, w.time*1000)
		}
	}
	if p.Duration.Microseconds() != 400 {
		t.Errorf("Duration = %v, want 400µs", p.Duration)
	}
	// Of 210 µs of wall time (the last sample weighs nothing): idle 50, program 30, GC 20.
	const note = "of the wall time, V8's pseudo-frames take (idle) 23.8% (V8 ran no JavaScript: the thread waited), " +
		"(program) 14.3% (native code of the engine and the embedder, outside JavaScript), (garbage collector) 9.5% (garbage collection); " +
		"they are roots as the file has them, and part of every total (ignore='^\\(idle\\)$' leaves idle time out)"
	if len(p.Notes) != 1 || p.Notes[0] != note {
		t.Errorf("notes %q, want %q", p.Notes, note)
	}
}

// TestV8Files checks the two V8 shapes against facts read independently from
// the raw JSON: one sample per entry of "samples", time in order, and wall
// time summing to the span from the first sample to the last.
func TestV8Files(t *testing.T) {
	for _, c := range []struct {
		file, deltas string // deltas: the field giving the sample times
	}{
		{"testdata/chrome65-simple.cpuprofile", "timeDeltas"},
		{"testdata/node10-example.cpuprofile", "timestamps"},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			n := len(raw["samples"].([]any))
			ts := raw[c.deltas].([]any)
			var span float64
			if c.deltas == "timeDeltas" {
				for _, d := range ts[1:] {
					span += d.(float64)
				}
			} else {
				span = ts[n-1].(float64) - ts[0].(float64)
			}
			p, err := analysis.Load(context.Background(), c.file, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != "v8" || len(p.Samples) != n || !p.Timed {
				t.Fatalf("Load = format %q, %d samples, timed %v; want v8, %d, timed", p.Format, len(p.Samples), p.Timed, n)
			}
			if got := p.Total(1); got != int64(span)*1000 {
				t.Errorf("wall total = %d ns, want %d µs", got, int64(span))
			}
			if got := p.Total(0); got != int64(n) {
				t.Errorf("samples total = %d, want %d", got, n)
			}
		})
	}
}

func TestV8Errors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"cycle", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"},"children":[2]},{"id":2,"callFrame":{"functionName":"b"},"children":[1]}],"samples":[1],"timeDeltas":[1]}`, "nodes[0]: node id 1 is its own ancestor"},
		{"dup", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"}},{"id":1,"callFrame":{"functionName":"b"}}],"samples":[1],"timeDeltas":[1]}`, "nodes[1]: node id 1 appears twice"},
		{"deltas", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samples":[1,1],"timeDeltas":[1]}`, "expected one time delta per sample, found 2 samples and 1 timeDeltas"},
		{"type", `{"nodes":[{"id":"x","callFrame":{"functionName":"a"}}],"samples":[1],"timeDeltas":[1]}`, `byte 19: expected int64 at "nodes.id", found JSON string`},
		{"truncated", `{"nodes":[{"id":1,"callFrame":{"functionName":"a"}}],"samp`, "byte 58"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := analysis.Parse(context.Background(), c.name+".cpuprofile", []byte(c.data), analysis.LoadOptions{Format: "v8"})
			if err == nil || !strings.HasPrefix(err.Error(), c.name+".cpuprofile: "+c.want) {
				t.Errorf("Parse(%s) error = %v, want %q after the file's name", c.name, err, c.want)
			}
		})
	}
}

// heapProfile is a sampling heap profile: bytes per call frame.
const heapProfile = `{"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":0,"children":[
 {"callFrame":{"functionName":"main","scriptId":"1","url":"file:///app/main.js","lineNumber":0,"columnNumber":0},"selfSize":100,"children":[
  {"callFrame":{"functionName":"","scriptId":"1","url":"file:///app/main.js","lineNumber":9,"columnNumber":4},"selfSize":32,"children":[]}]},
 {"callFrame":{"functionName":"(V8 API)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":8,"children":[]}]}}`

func TestV8Heap(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "app.heapprofile", []byte(heapProfile), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range p.Samples {
		got = append(got, testprof.StackNames(p, &p.Samples[i])+" "+strconv.FormatInt(p.Value(&p.Samples[i], 0), 10))
	}
	want := "main file:///app/main.js:1:1 100, main file:///app/main.js:1:1;(anonymous) file:///app/main.js:10:5 32, (V8 API) 8"
	if strings.Join(got, ", ") != want || p.ValueTypes[0] != (analysis.ValueType{Type: "space", Unit: "bytes"}) || p.Timed {
		t.Errorf("Parse = %q %v timed %v, want %q space/bytes untimed", got, p.ValueTypes, p.Timed, want)
	}
	// MANIFEST.md: sum(selfSize) of the two heap profiles of the corpus.
	for file, sum := range map[string]int64{
		"speedscope/sample/profiles/Chrome/69/Heap-20181005T144546.heapprofile":    10030888,
		"speedscope/sample/profiles/node/10.11.0/Heap-20181003T105432.heapprofile": 525704,
	} {
		p, err := analysis.Load(context.Background(), testprof.CorpusFile(t, file), analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Total(0) != sum {
			t.Errorf("Load(%s) total = %d bytes, want %d", file, p.Total(0), sum)
		}
	}
}

// TestV8Durations: a profile's duration runs from startTime to endTime; a
// file without one of them gets it from its first or last sample, and says
// so. Sample times count from the start.
func TestV8Durations(t *testing.T) {
	const nodes = `"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0,"columnNumber":0}}],"samples":[2,2,2]`
	for _, c := range []struct {
		name, times string
		dur, first  int64 // µs
		note        string
	}{
		{"both", `"startTime":5000,"endTime":5400,"timeDeltas":[100,10,20]`, 400, 100, ""},
		{"no end", `"startTime":5000,"timeDeltas":[100,10,20]`, 130, 100, "the file gives no endTime: the duration ends at the last sample"},
		{"no start", `"endTime":5400,"timeDeltas":[5100,10,20]`, 300, 0, "the file gives no startTime: the duration starts at the first sample"},
		{"neither", `"timeDeltas":[5100,10,20]`, 30, 0, "the file gives no startTime and no endTime: the duration runs from the first sample to the last"},
		{"end before last", `"startTime":5000,"endTime":5050,"timeDeltas":[100,10,20]`, 130, 100, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := analysis.Parse(context.Background(), "d.cpuprofile", []byte("{"+nodes+","+c.times+"}"), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var notes []string
			if c.note != "" {
				notes = []string{c.note}
			}
			if p.Duration.Microseconds() != c.dur || p.Samples[0].Time != c.first*1000 || !slices.Equal(p.Notes, notes) {
				t.Errorf("duration %v, first sample at %d ns, notes %q; want %d µs, %d µs, %q", p.Duration, p.Samples[0].Time, p.Notes, c.dur, c.first, notes)
			}
		})
	}
}

// TestV8SelfByNode checks every function's self wall time against V8's own
// timeDeltas read from the raw JSON: a sample of node n weighs the time to
// the next sample, and a function's self time is the sum over its nodes.
func TestV8SelfByNode(t *testing.T) {
	files := []string{"testdata/chrome65-simple.cpuprofile", // then files of the corpus
		ss + "Chrome/65/sucrase.cpuprofile", "firefox-profiler/src/test/fixtures/upgrades/hello.cjs-20231120T211435.cpuprofile"}
	for i, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if i > 0 {
				f = testprof.CorpusFile(t, f)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := selfByNode(t, data)
			p, err := analysis.Parse(context.Background(), f, data, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for i := range p.Samples {
				s := &p.Samples[i]
				if st := p.Stacks.At(s.Stack); len(st) > 0 {
					got[p.Frames[st[len(st)-1]].Name] += p.Value(s, 1)
				}
			}
			for name, w := range want {
				if got[name] != w {
					t.Errorf("%s: self %d ns, want %d", name, got[name], w)
				}
			}
			for name, g := range got {
				if _, ok := want[name]; !ok && g != 0 {
					t.Errorf("%s: self %d ns, want none", name, g)
				}
			}
		})
	}
}

const ss = "speedscope/sample/profiles/"

// selfByNode sums, per function named as the loader names it ("fn
// url:line:col", 1-based), the time from each of its samples to the next,
// in ns; the "(root)" node is no function.
func selfByNode(t *testing.T, data []byte) map[string]int64 {
	var raw struct {
		Nodes []struct {
			ID        int64
			CallFrame struct {
				FunctionName, URL        string
				LineNumber, ColumnNumber int64
			}
		}
		Samples    []int64
		TimeDeltas []float64
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	name := map[int64]string{}
	for _, n := range raw.Nodes {
		cf := n.CallFrame
		fn := cmp.Or(cf.FunctionName, "(anonymous)")
		if cf.URL != "" || cf.LineNumber >= 0 {
			fn += " " + strings.ReplaceAll(cf.URL, " ", "%20") + ":" + strconv.FormatInt(cf.LineNumber+1, 10) + ":" + strconv.FormatInt(cf.ColumnNumber+1, 10)
		}
		name[n.ID] = fn
	}
	out := map[string]int64{}
	for i := 0; i+1 < len(raw.Samples); i++ {
		if d := raw.TimeDeltas[i+1]; d < 0 {
			t.Fatalf("sample %d: a negative delta; the oracle sums deltas as they are", i+1)
		}
		if n := name[raw.Samples[i]]; n != "(root)" {
			out[n] += int64(raw.TimeDeltas[i+1] * 1000)
		}
	}
	for n, w := range out {
		if w == 0 {
			delete(out, n)
		}
	}
	return out
}

// A profile without samples has nothing to recover: no note.
func TestV8NoSamples(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "e.cpuprofile", []byte(`{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[],"timeDeltas":[]}`), analysis.LoadOptions{})
	if err != nil || len(p.Samples) != 0 || len(p.Notes) != 0 {
		t.Errorf("Parse = %v, %v; want no samples and no notes", p, err)
	}
}
