package gotrace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/exp/trace"

	"github.com/proflens/proflens/analysis"
)

// demoTrace is the phase demo's recording (notebooks/data/phasedemo-1.trace
// links to it), read from the file itself: tools that copy the module, such
// as gremlins, leave symbolic links out.
func demoTrace(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "formats", "demo", "phasedemo.trace"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParse(t *testing.T) {
	p, err := parse(&analysis.Input{Name: "demo.trace", Data: demoTrace(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Timed || len(p.Samples) < 500 || p.Lang != analysis.LangGo || p.Duration <= 0 {
		t.Fatalf("parse: timed %v, %d samples, lang %v, duration %v", p.Timed, len(p.Samples), p.Lang, p.Duration)
	}
	regions := map[string]int{}
	for i, s := range p.Samples {
		if i > 0 && s.Time < p.Samples[i-1].Time {
			t.Fatalf("sample %d at %d before sample %d at %d", i, s.Time, i-1, p.Samples[i-1].Time)
		}
		if r := p.Labels(&s)["region"]; len(r) == 1 {
			regions[r[0]]++
		}
		st := p.Stacks.At(s.Stack)
		if len(st) == 0 || !strings.HasPrefix(p.Frames[st[0]].Name, "runtime.") || !strings.HasPrefix(p.Thread(&s), "g") && !strings.HasPrefix(p.Thread(&s), "m") {
			t.Fatalf("sample %d: stack %v thread %q: want root-first stacks from the runtime and a g/m thread", i, st, p.Thread(&s))
		}
	}
	// The demo runs parse, sort, hash, idle, sort and compress in regions.
	for _, r := range []string{"parse", "sort", "hash", "compress"} {
		if regions[r] < 100 {
			t.Errorf("%d samples in region %s, want at least 100 (regions: %v)", regions[r], r, regions)
		}
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]bool{
		"go 1.22 trace\x00\x00\x00": true,
		"go 1.9 trace\x00\x00\x00":  true,
		"go 1.x trace":              false,
		"go 1.22 tracer":            true, // the reader decides the rest
		"go 1.20 trace":             true,
		"go 1.100 trace":            true,
		"go 1.1000 trace":           false, // at most three digits
		"go 1. trace":               false,
		"go 1.":                     false, // a head cut short
		"go 1.2":                    false,
		"go 1.22":                   false,
		"goroutine profile: total":  false,
		"\x1f\x8b":                  false,
	} {
		if got := sniff([]byte(in)); got != want {
			t.Errorf("sniff(%q) = %v, want %v", in, got, want)
		}
	}
	if !sniff(demoTrace(t)) {
		t.Error("sniff(demo recording) = false")
	}
}

func TestParseErrors(t *testing.T) {
	data := demoTrace(t)
	for name, in := range map[string][]byte{
		"truncated": data[:len(data)/2],
		"header":    []byte("go 1.99 trace\x00\x00\x00"),
		"garbage":   append([]byte("go 1.23 trace\x00\x00\x00"), strings.Repeat("\xff", 64)...),
	} {
		if _, err := parse(&analysis.Input{Name: name + ".trace", Data: in}); err == nil || !strings.Contains(err.Error(), name+".trace") {
			t.Errorf("parse(%s) error = %v, want one naming the file", name, err)
		}
	}
}

func FuzzParseGoTrace(f *testing.F) {
	data := demoTrace(f)
	f.Add(data[:2048])
	f.Add([]byte("go 1.23 trace\x00\x00\x00\x01\x02"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := parse(&analysis.Input{Name: "fuzz.trace", Data: in})
		if err == nil && len(p.Samples) == 0 {
			t.Fatal("parse returned a profile without samples")
		}
	})
}

// A trace without CPU samples says why: before Go 1.19 Go could not write
// them into traces; from 1.19 the CPU profiler must run during the trace.
func TestNoSamples(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"user_task_region_1_11_good", "it was written by Go 1.11, and Go writes the CPU profiler's samples into execution traces from Go 1.19 on"},
		{"user_task_region_1_19_good", "record it with the CPU profiler running (pprof.StartCPUProfile) during runtime/trace.Start"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = parse(&analysis.Input{Name: c.file, Data: data})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.file+": ") {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
}

// The demo's facts beyond its samples: it holds no heap objects and gives
// no warning, and its Start is the wall-clock time of its first event,
// which every clock snapshot in the file (one per second) agrees with: a
// snapshot's wall time is Start plus its trace time since the first event.
func TestParseFacts(t *testing.T) {
	data := demoTrace(t)
	p, err := parse(&analysis.Input{Name: "demo.trace", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Memory) != 0 || p.MemorySource != "" || len(p.Warnings) != 0 {
		t.Errorf("%d memory events, source %q, warnings %q; want none", len(p.Memory), p.MemorySource, p.Warnings)
	}
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	snapshots := 0
	var t0 trace.Time
	for n := 0; ; n++ {
		ev, err := r.ReadEvent()
		if err != nil {
			break
		}
		if n == 0 {
			t0 = ev.Time()
		}
		if ev.Kind() != trace.EventSync || ev.Sync().ClockSnapshot == nil {
			continue
		}
		c := ev.Sync().ClockSnapshot
		snapshots++
		if d := p.Start.Add(c.Trace.Sub(t0)).Sub(c.Wall); d < -10*time.Microsecond || d > 10*time.Microsecond {
			t.Errorf("clock snapshot at %v: wall %v, Start %v puts it %v off", c.Trace.Sub(t0), c.Wall, p.Start, d)
		}
	}
	if snapshots < 2 {
		t.Fatalf("%d clock snapshots in the demo, want several", snapshots)
	}
}

// A trace cut short fails at the event it cuts: the error counts the events
// read before it, as the trace reader sees them.
func TestParseErrorEvent(t *testing.T) {
	data := demoTrace(t)
	cut := data[:len(data)*3/4]
	r, err := trace.NewReader(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; ; n++ {
		if _, err := r.ReadEvent(); err != nil {
			if errors.Is(err, io.EOF) {
				t.Fatal("the cut trace reads to its end")
			}
			break
		}
	}
	_, err = parse(&analysis.Input{Name: "cut.trace", Data: cut})
	if want := fmt.Sprintf("cut.trace: go trace event %d: ", n); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want one starting %q", err, want)
	}
}
