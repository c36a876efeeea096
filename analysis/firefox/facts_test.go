package firefox

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
)

// TestFacts: each testdata file's facts beyond its stacks. The start is
// meta.startTime (ms since 1970), the period meta.interval, and the
// duration runs from the first sample to the last plus one interval; the
// samples' times (ms) and the threads, with their pids or process types,
// were read from the JSON by hand. Gecko threads without a pid are labelled
// by the (sub)process they are in, counted from 1.
func TestFacts(t *testing.T) {
	const ff = 1460221352723.438 // the Firefox Profiler fixtures' meta.startTime
	for _, c := range []struct {
		file       string
		startMs    float64
		periodNs   int64
		durationMs float64 // last sample − first sample + interval
		threads    []string
	}{
		{"gecko-1.json", ff, 1e6, 1006 + 1, []string{"GeckoMain (process 1)", "Compositor (process 1)", "GeckoMain (process 2)"}},
		{"gecko-2.json", ff, 1e6, 1006 + 1, []string{"GeckoMain (Unknown Process 1)", "Compositor (Unknown Process 2)", "GeckoMain (Unknown Process 3)"}},
		{"processed-1.json", ff, 1e6, 1006 + 1, []string{"GeckoMain", "Compositor", "Content"}},
		{"processed-2.json", ff, 1e6, 1006 + 1, []string{"GeckoMain (default)", "Compositor (default)", "GeckoMain (tab)"}},
		{"processed-3.json", ff, 1e6, 1006 + 1, []string{"GeckoMain (Unknown Process 1)", "Compositor (Unknown Process 2)", "GeckoMain (Unknown Process 3)"}},
		{"processed-shared-v70.json", 1700000000000, 1e6, 4 - 1 + 1, []string{"GeckoMain (pid 100)", "Worker (pid 200)"}},
		{"processed-threads-libs.json", 1700000000000, 1e6, 4 - 1 + 1, []string{"w tid 5", "w tid 6", "x #2", "x #3"}},
		{"samply-ls-linux.json.gz", 1671458961578.1055, 250000, 3273.220366 + 0.25, []string{"GeckoMain"}},
	} {
		p := load(t, "testdata/"+c.file)
		want := time.UnixMilli(0).Add(time.Duration(c.startMs * 1e6))
		if d := p.Start.Sub(want); d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("%s: start %v, want %v", c.file, p.Start, want)
		}
		if p.Period != c.periodNs || p.PeriodType != (analysis.ValueType{Type: "wall", Unit: "nanoseconds"}) {
			t.Errorf("%s: period %d %v, want %d wall/nanoseconds", c.file, p.Period, p.PeriodType, c.periodNs)
		}
		if d := p.Duration - time.Duration(c.durationMs*1e6); d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("%s: duration %v, want %v ms", c.file, p.Duration, c.durationMs)
		}
		var threads []string
		for _, th := range p.Threads() {
			threads = append(threads, th.Name)
		}
		if !slices.Equal(threads, c.threads) {
			t.Errorf("%s: threads %q, want %q", c.file, threads, c.threads)
		}
		if len(p.Warnings) > 0 {
			t.Errorf("%s: warnings %q, want none", c.file, p.Warnings)
		}
	}
}

// TestDevToolsExport: the DevTools export holds the Gecko profile under
// "profile", after its label and duration; it reads as the profile itself.
func TestDevToolsExport(t *testing.T) {
	gecko, err := os.ReadFile("testdata/gecko-1.json")
	if err != nil {
		t.Fatal(err)
	}
	export := `{"label": "Recording #1", "duration": 1007, "profile": ` + string(gecko) + `}`
	p, err := analysis.Parse(context.Background(), "export.json", []byte(export), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := load(t, "testdata/gecko-1.json")
	if got, want := timeline(p), timeline(want); !slices.Equal(got, want) {
		t.Errorf("export timeline:\n%s\nwant gecko-1's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !p.Start.Equal(want.Start) || p.Duration != want.Duration {
		t.Errorf("export: start %v, duration %v; want gecko-1's %v, %v", p.Start, p.Duration, want.Start, want.Duration)
	}
}

// processed writes a processed profile (version 70) with one function per
// name in strs (names[i] = strs[i]), stacks of one frame each, and the given
// threads' JSON.
func processed(meta, threads string) string {
	return `{"meta": {"preprocessedProfileVersion": 70` + meta + `}, "shared": {"stringArray": ["a", "b"],
		"stackTable": {"frame": [0, 1], "prefixOffset": [0, 1]}, "frameTable": {"func": [0, 1]}, "funcTable": {"name": [0, 1]}},
		"threads": [` + threads + `]}`
}

// TestStartAndPeriod: meta.startTime is the profile's start when it is a
// plausible time (after 1970, before 1e14 ms); meta.interval its period
// when it is positive and below 1e6 ms. Otherwise the profile has none.
func TestStartAndPeriod(t *testing.T) {
	const th = `{"samples": {"stack": [1], "time": [2]}}`
	for _, c := range []struct {
		meta    string
		startMs int64 // 0: no start
		period  int64 // ns, 0: no period
	}{
		{``, 0, 0},
		{`, "startTime": 0, "interval": 0`, 0, 0},
		{`, "startTime": -5, "interval": -1`, 0, 0},
		{`, "startTime": 1, "interval": 0.5`, 1, 500000},
		{`, "startTime": 99999999999999, "interval": 999999`, 99999999999999, 999999e6},
		{`, "startTime": 100000000000000, "interval": 1000000`, 0, 0},
	} {
		p, err := analysis.Parse(context.Background(), "in", []byte(processed(c.meta, th)), analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var wantStart time.Time
		if c.startMs != 0 {
			wantStart = time.UnixMilli(c.startMs).UTC()
		}
		if !p.Start.Equal(wantStart) {
			t.Errorf("meta {%s}: start %v, want %v", c.meta, p.Start, wantStart)
		}
		var wantType analysis.ValueType
		if c.period != 0 {
			wantType = analysis.ValueType{Type: "wall", Unit: "nanoseconds"}
		}
		if p.Period != c.period || p.PeriodType != wantType {
			t.Errorf("meta {%s}: period %d %v, want %d %v", c.meta, p.Period, p.PeriodType, c.period, wantType)
		}
		if p.Duration != time.Duration(c.period) {
			t.Errorf("meta {%s}: one sample lasts %v, want one period %v", c.meta, p.Duration, time.Duration(c.period))
		}
	}
}

// TestWeights: samples weigh their weights, "tracing-ms" ones in
// nanoseconds; a thread whose samples weigh in another unit than the first
// sampled thread's is left out with a warning, and a thread without samples
// has no unit to disagree with.
func TestWeights(t *testing.T) {
	data := processed(``, `{"name": "empty", "samples": {"stack": [], "time": []}},
		{"name": "t", "samples": {"stack": [0, 1], "time": [1, 2], "weight": [2.5, 0.0005], "weightType": "tracing-ms"}},
		{"name": "u", "samples": {"stack": [0], "time": [1], "weight": [7], "weightType": "bytes"}},
		{"name": "v", "samples": {"stack": [1], "time": [3], "weight": [1], "weightType": "tracing-ms"}}`)
	p, err := analysis.Parse(context.Background(), "in", []byte(data), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if vt := p.ValueTypes; len(vt) != 1 || vt[0] != (analysis.ValueType{Type: "wall", Unit: "nanoseconds"}) {
		t.Errorf("value types %v, want wall/nanoseconds", vt)
	}
	var got []string
	for i := range p.Samples {
		got = append(got, fmt.Sprintf("%s %d", p.Thread(&p.Samples[i]), p.Value(&p.Samples[i], 0)))
	}
	if want := []string{"t 2500000", "t 500", "v 1000000"}; !slices.Equal(got, want) {
		t.Errorf("samples %q, want %q", got, want)
	}
	if want := []string{`threads[2] (u) weighs its samples in "bytes", not "tracing-ms": left out`}; !slices.Equal(p.Warnings, want) {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}

// TestTimesNotNumbers: time deltas that add up past the largest float give
// an infinite time; that sample is left out, and a warning says so.
func TestTimesNotNumbers(t *testing.T) {
	data := processed(``, `{"samples": {"stack": [0, 1, 1], "timeDeltas": [1, 1.7e308, 1.7e308]}}`)
	p, err := analysis.Parse(context.Background(), "in", []byte(data), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) != 2 {
		t.Errorf("%d samples, want the 2 with finite times", len(p.Samples))
	}
	if want := []string{"1 samples with a time or weight that is not a number were left out"}; !slices.Equal(p.Warnings, want) {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}

// TestFrameNames: JavaScript frames (a location naming a URL or
// "self-hosted") are named "fn url:line:col" with the url as their file; a
// line or column of 0 is unknown and left out; other frames keep their
// label.
func TestFrameNames(t *testing.T) {
	for _, c := range []struct {
		loc  string
		want analysis.Frame
	}{
		{"frobnicate (chrome://blargh:34)", analysis.Frame{Name: "frobnicate chrome://blargh:34", File: "chrome://blargh", Line: 34}},
		{"f (https://x.org/a.js:3:7)[12]", analysis.Frame{Name: "f https://x.org/a.js:3:7", File: "https://x.org/a.js", Line: 3}},
		{"f (https://x.org/a.js:0:7)", analysis.Frame{Name: "f https://x.org/a.js", File: "https://x.org/a.js"}},
		{"f (https://x.org/a.js:3:0)", analysis.Frame{Name: "f https://x.org/a.js:3", File: "https://x.org/a.js", Line: 3}},
		{"forEach (self-hosted:211)", analysis.Frame{Name: "forEach self-hosted:211", File: "self-hosted", Line: 211}},
		{"Startup::XRE_Main", analysis.Frame{Name: "Startup::XRE_Main"}},
		{"PresShell::Paint (layout:4)", analysis.Frame{Name: "PresShell::Paint (layout:4)"}},
		{"0x100000f84", analysis.Frame{Name: "0x100000f84"}},
	} {
		if got := geckoFrame(c.loc); got != c.want {
			t.Errorf("geckoFrame(%q) = %+v, want %+v", c.loc, got, c.want)
		}
	}
	// A processed JavaScript function whose line and column columns stop
	// short of it has neither.
	data := `{"meta": {"preprocessedProfileVersion": 70}, "shared": {"stringArray": ["f", "https://x.org/a.js"],
		"stackTable": {"frame": [0], "prefixOffset": [0]}, "frameTable": {"func": [0]},
		"funcTable": {"name": [0], "isJS": [true], "source": [0], "lineNumber": [], "columnNumber": []},
		"sources": {"filename": [1]}}, "threads": [{"samples": {"stack": [0], "time": [0]}}]}`
	p, err := analysis.Parse(context.Background(), "in", []byte(data), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (analysis.Frame{Name: "f https://x.org/a.js", File: "https://x.org/a.js"}); len(p.Frames) != 1 || p.Frames[0] != want {
		t.Errorf("frames %+v, want %+v", p.Frames, want)
	}
}

// nested writes a Gecko profile with one thread ("t", one sample) and n
// levels of subprocesses below it, each one level down: under "processes",
// or (strings) written as a JSON string among the threads, before a second
// thread ("s"), as old Firefox did.
func nested(n int, strings bool) string {
	th := func(name string) string {
		return `{"name": "` + name + `", "samples": {"schema": {"stack": 0, "time": 1}, "data": [[0, 1]]},
			"stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0]]},
			"frameTable": {"schema": {"location": 0}, "data": [[0]]}, "stringTable": ["f"]}`
	}
	p := `{"meta": {"startTime": 1}, "threads": [` + th("t") + `]}`
	for range n {
		if strings {
			q := fmt.Sprintf("%q", p)
			p = `{"meta": {"startTime": 1}, "threads": [` + th("t") + `, ` + q + `, ` + th("s") + `]}`
		} else {
			p = `{"meta": {"startTime": 1}, "threads": [` + th("t") + `], "processes": [` + p + `, ` + p + `]}`
		}
	}
	return p
}

// TestSubprocessDepth: subprocesses are read four levels deep, with every
// thread of every level; a fifth level is an error naming where it is.
func TestSubprocessDepth(t *testing.T) {
	for _, c := range []struct {
		strings bool
		samples int // at four levels
		err     string
	}{
		{false, 1 + 2 + 4 + 8 + 16, "in: processes[0].processes[0].processes[0].processes[0].processes: expected at most 4 levels of subprocesses"},
		{true, 1 + 4*2, "in: threads[1].threads[1].threads[1].threads[1].threads[1]: expected a thread: expected firefox.geckoThread at the top level, found JSON string"},
	} {
		p, err := analysis.Parse(context.Background(), "in", []byte(nested(4, c.strings)), analysis.LoadOptions{Format: "firefox"})
		if err != nil {
			t.Fatalf("4 levels (strings %v): %v", c.strings, err)
		}
		if len(p.Samples) != c.samples {
			t.Errorf("4 levels (strings %v): %d samples, want one per thread, %d", c.strings, len(p.Samples), c.samples)
		}
		_, err = analysis.Parse(context.Background(), "in", []byte(nested(5, c.strings)), analysis.LoadOptions{Format: "firefox"})
		if err == nil || err.Error() != c.err {
			t.Errorf("5 levels (strings %v): error %v, want %s", c.strings, err, c.err)
		}
	}
}
