package phase

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/gotrace"
)

// demo loads a recording of notebooks/phasedemo and its interval vectors at
// level 1 (packages: strconv, slices, crypto/…, compress/flate, runtime).
func demo(t testing.TB, file string, c Count) (*analysis.Profile, *Vectors) {
	t.Helper()
	return demoAt(t, file, c, 0)
}

// demoHomes are the homes of the recordings that notebooks/data links to:
// the tests read them there, so that they pass in a copy of the module
// without symbolic links too (gremlins makes one for each mutant).
var demoHomes = map[string]string{
	"phasedemo-1.trace": filepath.Join("..", "analysis", "formats", "demo", "phasedemo.trace"),
}

// demoAt is demo in intervals of interval ns (0: Build's default, -1:
// DefaultInterval).
func demoAt(t testing.TB, file string, c Count, interval int64) (*analysis.Profile, *Vectors) {
	t.Helper()
	path := cmp.Or(demoHomes[file], filepath.Join("..", "notebooks", "data", file))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := analysis.Parse(context.Background(), path, data, analysis.LoadOptions{Format: "gotrace"})
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	if interval < 0 {
		interval, _ = DefaultInterval(tr, LevelDims(tr, 1), DefaultParams())
	}
	v, err := Build(t.Context(), tr, LevelDims(tr, 1), Options{Count: c, Interval: interval})
	if err != nil {
		t.Fatal(err)
	}
	return p, v
}

// TestDemoPhases checks detection on the demo recordings against the phases
// the program marked with trace regions (level-1 names, count=self, the
// paper's parameters): every true boundary has a detected one within ω
// intervals, every returning phase gets the id of its first occurrence,
// idle stretches are the empty phase once the window has left the last
// samples (ω-1 intervals), and the labelling agrees (ARI) far above the
// baselines.
func TestDemoPhases(t *testing.T) {
	for _, file := range []string{"phasedemo-1.trace", "phasedemo-2.trace"} {
		t.Run(file, func(t *testing.T) {
			p, v := demo(t, file, CountSelf)
			truth := demoTruth(p, v)
			r, err := Detect(t.Context(), v, DefaultParams(), nil)
			if err != nil {
				t.Fatal(err)
			}
			w := r.Params.Window
			s := Score(truth, r.Of, w)
			t.Logf("%d intervals, %d phases: precision %.2f recall %.2f ARI %.3f recurrence %.2f", v.Len(), s.Phases, s.Precision, s.Recall, s.ARI, s.Recurrence)
			if s.Recall != 1 {
				t.Errorf("boundary recall within %d intervals = %.2f, want 1\ndetected %s\ntruth    %s", w, s.Recall, digits(r.Of), digits(truth))
			}
			if s.Recurrence != 1 {
				t.Errorf("recurrence = %.2f, want 1 (a returning phase keeps its id)\ndetected %s\ntruth    %s", s.Recurrence, digits(r.Of), digits(truth))
			}
			idle, empty := 0, 0
			for i := range truth {
				if truth[i] == 0 && i >= w-1 && truth[i-w+1] == 0 {
					idle++
					if r.Of[i] == Empty {
						empty++
					}
				}
			}
			// Runtime samples off the program's goroutine (GC, timers)
			// can land in an idle stretch and make a phase of their own.
			if idle == 0 || float64(empty) < 0.9*float64(idle) {
				t.Errorf("%d of %d idle intervals (past the window) in the empty phase, want at least 90%%", empty, idle)
			}
			if one := ARI(truth, OnePhase(len(truth))); s.ARI < 0.8 || s.ARI < one+0.5 {
				t.Errorf("ARI = %.3f, want at least 0.8 and well above one phase (%.3f)", s.ARI, one)
			}
		})
	}
}

// demoTruth numbers the demo's regions per interval; its "idle" region
// (sleeping: samples there are the runtime's) is 0 like no samples at all.
func demoTruth(p *analysis.Profile, v *Vectors) []int32 {
	labels := Truth(p, v, "region")
	for i, l := range labels {
		if l == "idle" {
			labels[i] = ""
		}
	}
	return IDs(labels)
}

// digits shows ids as one character each (0-9, then letters).
func digits(ids []int32) string {
	const sym = "0123456789abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, len(ids))
	for i, id := range ids {
		b[i] = '?'
		if int(id) < len(sym) {
			b[i] = sym[id]
		}
	}
	return string(b)
}

// TestDefaultInterval: the demo recordings (about 1,200 samples over 7 to
// 8 s) are too sparse for DefaultIntervals intervals (6 samples each): the
// default length gives about MinSamples samples an interval instead, and
// says so. On the first recording, whose true phases the trace regions
// mark, that removes every spurious boundary that 200 intervals of 40 ms
// (rounded to 50 ms) made: precision 0.50 → 1.00, ARI 0.935 → 0.958 (the
// second recording: precision 0.56 → 0.71, ARI 0.922 → 0.804).
func TestDefaultInterval(t *testing.T) {
	for _, file := range []string{"phasedemo-1.trace", "phasedemo-2.trace"} {
		p, v := demoAt(t, file, CountSelf, -1)
		tr := analysis.NewTree(p)
		ns, why := DefaultInterval(tr, LevelDims(tr, 1), DefaultParams())
		avg := float64(len(p.Samples)) / float64(v.Len())
		if v.Intervals[0].End-v.Intervals[0].Start != ns || avg < MinSamples/1.6 || avg > MinSamples*1.6 {
			t.Errorf("%s: %d intervals of %d ns, %.1f samples each; want the default length %d and about %d samples", file, v.Len(), v.Intervals[0].End-v.Intervals[0].Start, avg, ns, MinSamples)
		}
		if want := fmt.Sprintf("about %d samples an interval on average (%d samples over", MinSamples, len(p.Samples)); !strings.Contains(why, want) {
			t.Errorf("%s: why = %q, want %q", file, why, want)
		}
	}
	p, v := demoAt(t, "phasedemo-1.trace", CountSelf, -1)
	r, err := Detect(t.Context(), v, DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := Score(demoTruth(p, v), r.Of, r.Params.Window); s.Precision != 1 {
		t.Errorf("phasedemo-1 at the default interval: boundary precision %.2f, want 1\ndetected %s\ntruth    %s", s.Precision, digits(r.Of), digits(demoTruth(p, v)))
	}
}
