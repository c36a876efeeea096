package firefox

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

func load(t *testing.T, name string) *analysis.Profile {
	t.Helper()
	p, err := analysis.Load(context.Background(), name, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "firefox" {
		t.Fatalf("%s: format %s, want firefox", name, p.Format)
	}
	testprof.Check(t, name, p)
	return p
}

// timeline renders a profile's samples as "time ns thread: stack" lines.
func timeline(p *analysis.Profile) []string {
	var out []string
	for i := range p.Samples {
		s := &p.Samples[i]
		out = append(out, fmt.Sprintf("%d %s: %s", s.Time, p.Thread(s), testprof.StackNames(p, s)))
	}
	return out
}

// samplesPerThread counts the samples of each thread.
func samplesPerThread(p *analysis.Profile) map[string]int {
	n := map[string]int{}
	for i := range p.Samples {
		n[p.Thread(&p.Samples[i])]++
	}
	return n
}

// TestGeckoAgainstProcessed: the Firefox Profiler's own fixtures hold one
// recording in the Gecko format (gecko-1, version 3, whose third thread is
// a subprocess written as a JSON string) and as the profiler processed it
// (processed-1, unversioned): both readings give the same samples, at the
// same times, with the same stacks. processed-2 (version 7), gecko-2
// (version 13, its subprocess under "processes") and processed-3 (version
// 24) are later edits of it: the subprocess's last sample has another stack
// in each, the other 20 samples are the same. MANIFEST.md counts 7 samples in GeckoMain and 7 in
// Compositor of each Gecko file. The processed files name an unsymbolicated
// frame with its library ("firefox+0x100000f84"), the Gecko files by its
// address alone: the comparison drops the library.
func TestGeckoAgainstProcessed(t *testing.T) {
	lines := func(name string) []string {
		p := load(t, "testdata/"+name)
		if len(p.Samples) != 21 || !p.Timed || len(samplesPerThread(p)) != 3 {
			t.Errorf("%s: %d samples in %d threads, timed %v; want 21 in 3, timed", name, len(p.Samples), len(samplesPerThread(p)), p.Timed)
		}
		for th, n := range samplesPerThread(p) {
			if n != 7 {
				t.Errorf("%s: thread %s has %d samples, want 7", name, th, n)
			}
		}
		var out []string
		for _, l := range timeline(p) {
			out = append(out, libPrefix.ReplaceAllString(stripThread(l), "${1}0x"))
		}
		slices.Sort(out)
		return out
	}
	g1, p1 := lines("gecko-1.json"), lines("processed-1.json")
	if !slices.Equal(g1, p1) {
		t.Errorf("gecko-1 and processed-1 differ:\n%s\n---\n%s", strings.Join(g1, "\n"), strings.Join(p1, "\n"))
	}
	for _, name := range []string{"processed-2.json", "gecko-2.json", "processed-3.json"} {
		if d := diff(lines(name), g1); len(d) != 1 || !strings.HasPrefix(d[0], "1006000000 ") {
			t.Errorf("%s differs from gecko-1 in %q, want the subprocess's last sample (at 1006 ms) only", name, d)
		}
	}
}

// libPrefix is the library before an address in a frame name.
var libPrefix = regexp.MustCompile(`(^|;| )[^;]+\+0x`)

// diff returns the lines of a not in b (both sorted).
func diff(a, b []string) []string {
	var out []string
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			out = append(out, l)
		}
	}
	return out
}

// stripThread drops the thread label of a timeline line: the formats
// label the subprocess differently (pid or process type).
func stripThread(line string) string {
	at, rest, _ := strings.Cut(line, " ")
	_, stack, _ := strings.Cut(rest, ": ")
	return at + " " + stack
}

// TestProcessedShared: a processed profile of the current layout (version
// 70: shared tables, prefixOffset, sources, timeDeltas on one thread, times
// on the other), written here by hand after the format's documentation
// (docs-developer/CHANGELOG-formats.md of firefox-devtools/profiler).
func TestProcessedShared(t *testing.T) {
	p := load(t, "testdata/processed-shared-v70.json")
	want := []string{
		"1000000 GeckoMain (pid 100): main;work app.js:10:3",
		"1500000 Worker (pid 200): idle",
		"2000000 GeckoMain (pid 100): main;work app.js:10:3;render app.js:20:5",
		"3000000 GeckoMain (pid 100): main;work app.js:10:3;0x1f00",
		"3500000 Worker (pid 200): main;work app.js:10:3;render app.js:20:5",
		"4000000 GeckoMain (pid 100): ",
	}
	if got := timeline(p); !slices.Equal(got, want) {
		t.Errorf("timeline:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Start.UnixMilli() != 1700000000000 || p.Period != 1e6 {
		t.Errorf("start %v, period %d; want 1700000000000 ms, 1 ms", p.Start, p.Period)
	}
}

// TestDevToolsAgainstSpeedscope: the Firefox DevTools exports that
// speedscope's tests import; speedscope's snapshot (MANIFEST.md: the
// importers' oracles) lists each JavaScript frame's total time, which the
// samples give when each weighs the time to the next sample and frames of
// Firefox itself (resource:, self-hosted) are left out, as speedscope does.
// MANIFEST.md: firefox.json has 10,161 GeckoMain samples.
func TestDevToolsAgainstSpeedscope(t *testing.T) {
	dir := filepath.Join(testprof.Corpus(t), "speedscope")
	snap, err := os.ReadFile(filepath.Join(dir, "src/import/__snapshots__/firefox.test.ts.snap"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ export, file string }{
		{"importFromFirefox 1", "Firefox/59/simple-firefox.json"},
		{"importFromFirefox ignore self-hosted 1", "Firefox/63/simple-firefox.json"},
		{"importFromFirefox recursion 1", "Firefox/61/recursion.json"},
	} {
		want := snapshotTotals(t, snap, c.export)
		got := jsTotals(load(t, filepath.Join(dir, "sample/profiles", c.file)))
		if len(got) != len(want) {
			t.Errorf("%s: JS frames %v, speedscope lists %v", c.file, got, want)
		}
		for name, ms := range want {
			if math.Abs(got[name]-ms) > 1e-3 {
				t.Errorf("%s: %s totals %.6f ms, speedscope %.6f", c.file, name, got[name], ms)
			}
		}
	}
	if p := load(t, filepath.Join(dir, "sample/profiles/Firefox/59/firefox.json")); len(p.Samples) != 10161 {
		t.Errorf("firefox.json: %d samples, want 10161", len(p.Samples))
	}
}

// jsTotals sums, per JavaScript frame, the time from each sample to the
// next, once per sample.
func jsTotals(p *analysis.Profile) map[string]float64 {
	out := map[string]float64{}
	for i := 0; i+1 < len(p.Samples); i++ {
		s := &p.Samples[i]
		ms := float64(p.Samples[i+1].Time-s.Time) / 1e6
		seen := map[int32]bool{}
		for _, f := range p.Stacks.At(s.Stack) {
			fr := p.Frames[f]
			if fr.File == "" || strings.HasPrefix(fr.File, "resource:") || fr.File == "self-hosted" || seen[f] {
				continue
			}
			seen[f] = true
			out[fr.Name] += ms
		}
	}
	return out
}

var (
	snapKey   = regexp.MustCompile(`"key": "(.*) \((.*)\)",`)
	snapTotal = regexp.MustCompile(`"totalWeight": ([0-9.e-]+),`)
)

// snapshotTotals reads the frames' total weights of one export of a
// speedscope snapshot, naming each frame as the loader does.
func snapshotTotals(t *testing.T, snap []byte, export string) map[string]float64 {
	_, rest, ok := strings.Cut(string(snap), "exports[`"+export+"`] = `")
	if !ok {
		t.Fatalf("no export %q in the snapshot", export)
	}
	block, _, _ := strings.Cut(rest, `"stacks"`)
	keys, totals := snapKey.FindAllStringSubmatch(block, -1), snapTotal.FindAllStringSubmatch(block, -1)
	if len(keys) != len(totals) || len(keys) == 0 {
		t.Fatalf("%s: %d keys, %d totals", export, len(keys), len(totals))
	}
	out := map[string]float64{}
	for i, k := range keys {
		ms, err := strconv.ParseFloat(totals[i][1], 64)
		if err != nil {
			t.Fatal(err)
		}
		out[k[1]+" "+k[2]] = ms
	}
	return out
}

// TestErrors: bad input gives errors naming the byte offset or the path
// into the data, and what was expected.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"meta": {"stackwalk": 1}, "threads": [`, "in: byte 39: expected a Firefox profile object (invalid JSON): unexpected end of JSON input"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 1]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 3]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].stackTable: data[0]: expected a frame index below 1, found 3"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 1]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[0, 0]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].stackTable: data[0]: expected an index below 0 in column 0, found 0"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0}, "data": [[0]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": []}, "frameTable": {"schema": {"location": 0}, "data": []}, "stringTable": []}]}`,
			`in: threads[0].samples: expected a "time" column in the schema`},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [5], "time": [0]}}]}`,
			"in: threads[0].samples.stack[0]: expected a stack index below 1, found 5"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [0, 0], "prefixOffset": [0, 7]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [1], "time": [0]}}]}`,
			"in: threads[0].stackTable[1]: expected a prefix stack before it, found -2"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": [], "stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [0], "time": [0]}}]}`,
			"in: threads[0].funcTable.name[0]: expected a string index below 0, found 0"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "threads": []}`, "in: expected samples in threads[].samples; the profile has none"},
		{`{"meta": {"preprocessedProfileVersion": 70}}`, "in: expected samples in threads[].samples; the profile has none"},
		{`{"label": "x", "duration": 1, "profile": {"threads": 5}}`,
			`in: profile: expected a Gecko profile: expected []json.RawMessage at "threads", found JSON number`},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].samples: data[0]: expected a time: <nil>"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 1]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 1]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].stackTable: data[0]: expected a frame index below 1, found 1"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 1]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 2147483648]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].stackTable: data[0]: expected a frame: expected an index below 2147483647 in column 1, found 2.147483648e+09"},
		{`{"meta": {"stackwalk": 1}, "threads": [{"name": "a", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[2147483648, 1]]}, "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0]]}, "frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}]}`,
			"in: threads[0].samples: data[0]: expected an index below 2147483647 in column 0, found 2.147483648e+09"},
		{`{"meta": {"stackwalk": 1}, "threads": ["{\"threads\": [{\"name\": \"a\"}]}"]}`,
			`in: threads[0].threads[0].frameTable: expected a "location" column in the schema`},
		{`{"meta": {"stackwalk": 1}, "threads": [], "processes": [{"threads": [{"name": "a"}]}]}`,
			`in: processes[0].threads[0].frameTable: expected a "location" column in the schema`},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [1], "time": [0]}}]}`,
			"in: threads[0].samples.stack[0]: expected a stack index below 1, found 1"},
		{`{"meta": {"preprocessedProfileVersion": 7}, "threads": [{"stringArray": ["f"], "stackTable": {"frame": [0], "prefix": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}, "samples": {"stack": [0], "time": [0]}}]}`,
			"in: threads[0].stackTable[0]: expected a prefix stack before it, found 0"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [1]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [0], "time": [0]}}]}`,
			"in: threads[0].frameTable.func[0]: expected a function index below 1, found 1"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0], "source": [1]}, "sources": {"filename": [0]}}, "threads": [{"samples": {"stack": [0], "time": [0]}}]}`,
			"in: threads[0].funcTable[0]: source: expected an index into shared.sources, found 1"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f"], "stackTable": {"frame": [1], "prefixOffset": [0]}, "frameTable": {"func": [0]}, "funcTable": {"name": [0]}}, "threads": [{"samples": {"stack": [0], "time": [0]}}]}`,
			"in: threads[0].stackTable[0]: expected a frame index below 1, found 1"},
		{`{"meta": {"preprocessedProfileVersion": 70}, "threads": [{}, {"samples": {"stack": [0], "time": [0], "weightType": "sa\u00ffples"}}]}`,
			`in: threads[1].samples.weightType: expected samples, tracing-ms or bytes, found "saÿples"`},
	} {
		_, err := analysis.Parse(context.Background(), "in", []byte(c.data), analysis.LoadOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%.60s...) error = %v\nwant %s", c.data, err, c.want)
		}
		testprof.CheckError(t, "in", err)
	}
}

func FuzzFirefox(f *testing.F) {
	testprof.Fuzz(f, "firefox", "gecko-1.json", "gecko-2.json", "processed-3.json", "processed-shared-v70.json")
}

// TestSamply loads a profile samply wrote from a perf recording of ls
// (unsymbolicated: functions named by their address in their library):
// its thread keeps its id, process and process id, and each frame its
// library, so that one address in two libraries is two frames. The
// samples per library (each weighing its weight) are counted directly
// from the JSON tables.
func TestSamply(t *testing.T) {
	const path = "testdata/samply-ls-linux.json.gz"
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	th := p.Threads()
	if len(th) != 1 || th[0] != (analysis.Thread{Name: "GeckoMain", ID: "18693", Process: "ls", PID: "18693"}) {
		t.Errorf("threads %+v, want GeckoMain of ls, ids 18693", th)
	}
	want := samplyLeafLibs(t, path)
	got := map[string]int64{}
	for i := range p.Samples {
		lib := "(no stack)"
		if st := p.Stacks.At(p.Samples[i].Stack); len(st) > 0 {
			leaf := p.Frames[st[len(st)-1]]
			lib, _, _ = strings.Cut(leaf.Name, "+0x")
			if leaf.Lib != lib {
				t.Fatalf("frame %s: library %q, want %q", leaf.Name, leaf.Lib, lib)
			}
		}
		got[lib] += p.Value(&p.Samples[i], 0)
	}
	if !maps.Equal(got, want) || len(want) < 3 {
		t.Errorf("samples by the library of their leaf = %v, want %v", got, want)
	}
}

// samplyLeafLibs counts the samples of a processed profile by the library
// of their leaf frame, reading the tables directly.
func samplyLeafLibs(t *testing.T, path string) map[string]int64 {
	raw, _ := os.ReadFile(path)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Libs    []struct{ Name string }
		Threads []struct {
			Samples struct {
				Stack  []*int
				Weight []*int64
			}
			StackTable    struct{ Frame []int }
			FrameTable    struct{ Func []int }
			FuncTable     struct{ Resource []int }
			ResourceTable struct{ Lib []int }
		}
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, th := range doc.Threads {
		for i, s := range th.Samples.Stack {
			w := int64(1)
			if i < len(th.Samples.Weight) && th.Samples.Weight[i] != nil {
				w = *th.Samples.Weight[i]
			}
			if s == nil {
				out["(no stack)"] += w
				continue
			}
			f := th.FrameTable.Func[th.StackTable.Frame[*s]]
			out[doc.Libs[th.ResourceTable.Lib[th.FuncTable.Resource[f]]].Name] += w
		}
	}
	return out
}

// Threads that share a name are told apart by their id, else by their
// index, and a thread without samples is none; an unsymbolicated function
// is named with its library when its resource leads to a named one, and
// keeps its address otherwise (a resource out of range or null, a library
// without a name).
func TestThreadsAndLibraries(t *testing.T) {
	p := load(t, "testdata/processed-threads-libs.json")
	var threads []string
	for _, th := range p.Threads() {
		threads = append(threads, th.Name+" = "+th.ID+"/"+th.Process+"/"+th.PID)
	}
	want := []string{"w tid 5 = 5/app/100", "w tid 6 = 6/app/100", "x #2 = /app/100", "x #3 = /app/100"}
	if !slices.Equal(threads, want) {
		t.Errorf("threads %q, want %q", threads, want)
	}
	var frames []string
	for _, f := range p.Frames {
		frames = append(frames, f.Name)
	}
	slices.Sort(frames)
	if got, want := strings.Join(frames, " "), "0x20 0x30 0x40 0x60 0x70 app+0x10 libc.so.6+0x10 main"; got != want {
		t.Errorf("frames %q, want %q", got, want)
	}
}
