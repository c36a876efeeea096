package speedscope

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestSpeedscopeChoose: a file with two profiles (speedscope's
// two-sampled.speedscope.json, "one" and "two", active 1) loads the active
// one and says which others it has; profile= picks one by index or name,
// or all of them, one thread each.
func TestSpeedscopeChoose(t *testing.T) {
	const path = "testdata/speedscope-two-sampled.json"
	for _, c := range []struct{ profile, note string }{
		{"", `loaded profile 1, "two", the active one (load with profile=N, NAME or all for the others: 0 "one", 1 "two")`},
		{"0", `loaded profile 0, "one" (load`},
		{"two", `loaded profile 1, "two" (load`},
	} {
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{Profile: c.profile})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Samples) != 5 || p.Total(0) != 14e9 || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], c.note) {
			t.Errorf("profile=%s: %d samples, total %d, notes %q; want 5 samples of 14s and a note with %q", c.profile, len(p.Samples), p.Total(0), p.Notes, c.note)
		}
	}
	_, err := analysis.Load(context.Background(), path, analysis.LoadOptions{Profile: "three"})
	if want := `profile=three: the file has no such profile; it has 0 "one", 1 "two"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("profile=three: error %v, want %q", err, want)
	}
}

func TestSpeedscopeTwoSampled(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/speedscope-two-sampled.json", analysis.LoadOptions{Profile: "all"})
	if err != nil {
		t.Fatal(err)
	}
	// The file: two profiles "one" and "two", each of 5 samples weighing
	// 1, 1, 4, 3, 5 seconds.
	if p.Format != "speedscope" || !p.Timed || len(p.Samples) != 10 || p.Total(0) != 28e9 {
		t.Fatalf("Load = format %q, timed %v, %d samples, total %d; want speedscope, timed, 10, 28e9", p.Format, p.Timed, len(p.Samples), p.Total(0))
	}
	if got := strings.Join(testprof.Threads(p), ","); got != "one,two" {
		t.Errorf("threads = %s, want one,two", got)
	}
	var times []int64
	for _, s := range p.Samples {
		if p.Thread(&s) == "one" {
			times = append(times, s.Time/1e9)
		}
	}
	if got, want := times, []int64{0, 1, 2, 6, 9}; !slices.Equal(got, want) {
		t.Errorf("sample times of one = %v s, want %v", got, want)
	}
}

func TestSpeedscopeEvented(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/speedscope-evented.json", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, c := range p.Calls {
		calls = append(calls, testprof.StackNames(p, &analysis.Sample{Stack: c.Stack})+" "+strconv.FormatInt(c.Enter, 10)+"-"+strconv.FormatInt(c.Exit, 10))
	}
	if got, want := strings.Join(calls, ","), "a 0-14,a;b 0-14,a;b;c 0-2,a;b;d 2-6,a;b;c 6-9"; got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}
	// The events: a;b;c over [0,2), a;b;d over [2,6), a;b;c over [6,9),
	// a;b over [9,14), in unit "none".
	want := []string{"a;b;c 2", "a;b;d 4", "a;b;c 3", "a;b 5"}
	var got []string
	for i := range p.Samples {
		got = append(got, testprof.StackNames(p, &p.Samples[i])+" "+strconv.FormatInt(p.Value(&p.Samples[i], 0), 10))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || p.ValueTypes[0] != (analysis.ValueType{Type: "weight", Unit: "none"}) || p.Timed {
		t.Errorf("Load = %q, %v, timed %v; want %q, weight/none, untimed", got, p.ValueTypes, p.Timed, want)
	}
}

func TestSpeedscopeErrors(t *testing.T) {
	const head = `{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"A"}]},"profiles":`
	for _, c := range []struct{ name, data, want string }{
		{"testdata/speedscope-invalid-incomplete-trace.json", "", `profiles[0]: expected every opened frame to be closed; the events end with 1 open, "A" on top`},
		{"testdata/speedscope-invalid-out-of-order-events.json", "", `profiles[0]: events[6]: closes frame "B" at 4 while "A" is on top`},
		{"none.json", head + `[]}`, `expected at least one profile in "profiles"`},
		{"frame.json", head + `[{"type":"sampled","unit":"none","samples":[[0,3]],"weights":[1]}]}`, "profiles[0]: samples[0][1]: expected a frame index below 1, found 3"},
		{"weights.json", head + `[{"type":"sampled","unit":"none","samples":[[0]],"weights":[]}]}`, "profiles[0]: expected one weight per sample, found 1 samples and 0 weights"},
		{"weight.json", head + `[{"type":"sampled","unit":"none","samples":[[0]],"weights":[-1]}]}`, "profiles[0]: weights[0]: expected a finite weight ≥ 0, found -1"},
		{"type.json", head + `[{"type":"stacked","unit":"none"}]}`, `profiles[0]: expected "type" to be "sampled" or "evented", found "stacked"`},
		{"time.json", head + `[{"type":"evented","unit":"none","events":[{"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":4}]}]}`, "profiles[0]: events[1]: expected times in order, found 4 after 5"},
		{"event.json", head + `[{"type":"evented","unit":"none","events":[{"type":"X","frame":0,"at":5}]}]}`, `profiles[0]: events[0]: expected "type" "O" or "C", found "X"`},
		{"eframe.json", head + `[{"type":"evented","unit":"none","events":[{"type":"O","frame":1,"at":5}]}]}`, `profiles[0]: events[0]: expected a frame index below 1, found 1`},
		{"close.json", head + `[{"type":"evented","unit":"none","events":[{"type":"C","frame":0,"at":5}]}]}`, `profiles[0]: events[0]: closes frame "A" at 5 while no frame is on top`},
		{"close2.json", head + `[{"type":"evented","unit":"none","events":[{"type":"O","frame":0,"at":1},{"type":"C","frame":12,"at":5}]}]}`, `profiles[0]: events[1]: closes frame #12 at 5 while "A" is on top`},
		{"close3.json", head + `[{"type":"evented","unit":"none","events":[{"type":"O","frame":0,"at":1},{"type":"C","frame":1,"at":5}]}]}`, `profiles[0]: events[1]: closes frame #1 at 5 while "A" is on top`},
		{"all.json", head + `[{"type":"sampled","unit":"bytes","samples":[],"weights":[]},{"type":"sampled","unit":"seconds","samples":[],"weights":[]}]}`, `profile=all: the file's profiles have different units (bytes, seconds): load one of 0 "", 1 ""`},
		{"json.json", head + `[{"type":"evented","events":[{"type":"O","frame":"A"}]}]}`, `profiles[0]: expected float64 at "events.frame", found JSON string`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			opts := analysis.LoadOptions{}
			if c.name == "all.json" {
				opts.Profile = "all"
			}
			if c.data == "" {
				_, err = analysis.Load(context.Background(), c.name, opts)
			} else {
				_, err = analysis.Parse(context.Background(), c.name, []byte(c.data), opts)
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.name+": "+c.want) && !strings.HasPrefix(err.Error(), "load "+c.name+": "+c.want) {
				t.Errorf("load %s: error = %v, want %q after the file's name", c.name, err, c.want)
			}
		})
	}
}

func TestSpeedscopeMixedUnits(t *testing.T) {
	data := `{"shared":{"frames":[{"name":"A"}]},"activeProfileIndex":1,"profiles":[
	 {"type":"sampled","name":"cpu","unit":"milliseconds","samples":[[0]],"weights":[2]},
	 {"type":"sampled","name":"heap","unit":"bytes","samples":[[0]],"weights":[64]}]}`
	p, err := analysis.Parse(context.Background(), "mixed.json", []byte(data), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.ValueTypes[0] != (analysis.ValueType{Type: "space", Unit: "bytes"}) || p.Total(0) != 64 || len(p.Notes) != 1 {
		t.Errorf("Parse = %v total %d notes %q; want the active bytes profile only, with a note", p.ValueTypes, p.Total(0), p.Notes)
	}
	_, err = analysis.Parse(context.Background(), "mixed.json", []byte(data), analysis.LoadOptions{Profile: "all"})
	if want := "mixed.json: profile=all: the file's profiles have different units (milliseconds, bytes)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("profile=all: error %v, want %q", err, want)
	}
}

// A file is read as speedscope reads it: each profile is decoded when it is
// loaded, so that another profile of another shape does not stop it;
// frames' lines and columns may be strings or null, frame indices numbers
// written with a fraction of zero, samples arrays of indices ([[32]]).
func TestSpeedscopeLenient(t *testing.T) {
	const file = `{"$schema":"https://www.speedscope.app/file-format-schema.json",
 "shared":{"frames":[{"name":"main","file":"a.py","line":"3","col":null},{"name":"f","file":"a.py","line":7}]},
 "profiles":[
  {"type":"sampled","name":"ok","unit":"milliseconds","startValue":0,"endValue":5,"samples":[[0],[0,1.0],[0,1]],"weights":[1,2,2]},
  {"type":"sampled","name":"odd","unit":"milliseconds","startValue":0,"endValue":5,"samples":{"0":[0]},"weights":"2"}],
 "activeProfileIndex":0.0}`
	p, err := analysis.Parse(context.Background(), "lenient.json", []byte(file), analysis.LoadOptions{Profile: "0"})
	if err != nil {
		t.Fatal(err)
	}
	p = p.At(analysis.Lines) // the lines the file gives, as strings and as numbers
	var got []string
	for i := range p.Samples {
		got = append(got, testprof.StackNames(p, &p.Samples[i])+" "+strconv.FormatInt(p.Value(&p.Samples[i], 0)/1e6, 10))
	}
	want := []string{"main (a.py:3) 1", "main (a.py:3);f (a.py:7) 2", "main (a.py:3);f (a.py:7) 2"}
	if !slices.Equal(got, want) {
		t.Errorf("samples %q, want %q", got, want)
	}
	_, err = analysis.Parse(context.Background(), "lenient.json", []byte(file), analysis.LoadOptions{Profile: "odd"})
	if err == nil || !strings.Contains(err.Error(), "lenient.json: profiles[1]: expected") {
		t.Errorf("profile=odd: error %v, want one naming profiles[1]", err)
	}
}

// Times count from a profile's startValue, its duration is endValue less
// startValue, an evented profile's frames opened together nest without an
// empty sample between them, a weight of zero is a weight, fractional
// weights are rounded with a warning, a profile without a unit is in
// "none", and a single profile needs no note.
func TestSpeedscopeValues(t *testing.T) {
	const head = `{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"A"},{"name":"B"}]},"profiles":`
	for _, c := range []struct {
		name, data, want string
		dur              time.Duration
		warn             bool
	}{
		{"sampled", head + `[{"type":"sampled","unit":"milliseconds","startValue":100,"endValue":107,"samples":[[0],[0,1],[1]],"weights":[2,0,5]}]}`,
			"A 2000000 @0, A;B 0 @2000000, B 5000000 @2000000", 7 * time.Millisecond, false},
		{"evented", head + `[{"type":"evented","unit":"microseconds","startValue":10,"endValue":20,"events":[{"type":"O","frame":0,"at":10},{"type":"O","frame":1,"at":10},{"type":"C","frame":1,"at":14},{"type":"C","frame":0,"at":20}]}]}`,
			"A;B 4000 @0, A 6000 @4000", 10 * time.Microsecond, false},
		{"gap", head + `[{"type":"evented","unit":"microseconds","startValue":0,"endValue":20,"events":[{"type":"O","frame":0,"at":12},{"type":"C","frame":0,"at":20}]}]}`,
			"A 8000 @12000", 20 * time.Microsecond, false},
		{"fraction", head + `[{"type":"sampled","unit":"nanoseconds","startValue":0,"endValue":3,"samples":[[0]],"weights":[2.5]}]}`,
			"A 3 @0", 3, true},
		{"nounit", head + `[{"type":"sampled","startValue":0,"endValue":3,"samples":[[0]],"weights":[3]}]}`,
			"A 3 @0", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := analysis.Parse(context.Background(), c.name, []byte(c.data), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range p.Samples {
				s := &p.Samples[i]
				got = append(got, testprof.StackNames(p, s)+" "+strconv.FormatInt(p.Value(s, 0), 10)+" @"+strconv.FormatInt(s.Time, 10))
			}
			if strings.Join(got, ", ") != c.want || p.Duration != c.dur || (len(p.Warnings) > 0) != c.warn || len(p.Notes) != 0 {
				t.Errorf("samples %q, duration %v, warnings %q, notes %q; want %q, %v, warning %v, no note", got, p.Duration, p.Warnings, p.Notes, c.want, c.dur, c.warn)
			}
			if c.name == "nounit" && p.ValueTypes[0] != (analysis.ValueType{Type: "weight", Unit: "none"}) {
				t.Errorf("value type %v, want weight/none", p.ValueTypes[0])
			}
			if len(p.Threads()) != 0 {
				t.Errorf("threads %v, want none for a single profile", p.Threads())
			}
			if c.name == "evented" && (len(p.Calls) != 2 || p.Calls[0].Enter != 0 || p.Calls[1].Exit != 4000) {
				t.Errorf("calls %+v, want A and B entered at 0, B left at 4 µs", p.Calls)
			}
		})
	}
}

// activeProfileIndex out of range loads the first profile; profile= past
// the last profile is refused.
func TestSpeedscopeActiveRange(t *testing.T) {
	const file = `{"shared":{"frames":[{"name":"A"}]},"activeProfileIndex":2,"profiles":[
 {"type":"sampled","name":"one","unit":"none","samples":[[0]],"weights":[1]},
 {"type":"sampled","name":"two","unit":"none","samples":[[0],[0]],"weights":[1,1]}]}`
	p, err := analysis.Parse(context.Background(), "r.json", []byte(file), analysis.LoadOptions{})
	if err != nil || len(p.Samples) != 1 {
		t.Errorf("activeProfileIndex 2 of 2: %v, %v; want profile 0", p, err)
	}
	if _, err := analysis.Parse(context.Background(), "r.json", []byte(file), analysis.LoadOptions{Profile: "2"}); err == nil || !strings.Contains(err.Error(), "profile=2: the file has no such profile") {
		t.Errorf("profile=2 of 2: error %v", err)
	}
}
