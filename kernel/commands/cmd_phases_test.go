package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
	"github.com/proflens/proflens/phase"
)

// demoRecordings are the notebooks' two phase demo recordings, each read from
// its home in the repository (notebooks/data links the first one there).
var demoRecordings = map[string]string{
	"phasedemo-1.trace": "analysis/formats/demo/phasedemo.trace",
	"phasedemo-2.trace": "notebooks/data/phasedemo-2.trace",
}

// phaseSession copies the two demo recordings into a fresh session dir.
func phaseSession(t testing.TB) *kernel.Session {
	t.Helper()
	dir := t.TempDir()
	for f, home := range demoRecordings {
		data, err := os.ReadFile(filepath.Join("..", "..", home))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return kernel.NewSession(dir, testTable())
}

// TestPhasesSaveLabelUsing finds the phases of the first recording, labels
// one, saves the set and reuses it on the second recording (same program,
// other order and lengths): the second run's parse intervals must get the
// first run's parse phase, with its id, label and colour.
func TestPhasesSaveLabelUsing(t *testing.T) {
	s := phaseSession(t)
	_, err := RunForTest(t, s, "load phasedemo-1.trace as one\nphases\nlabel 1 \"parse numbers\"\nlabel 0 idle\nphases save=one.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(s.Dir, "one.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved, err := phase.ReadSaved(f, 0)
	if err != nil {
		t.Fatalf("saved set does not read back: %v", err)
	}
	var parse phase.SavedPhase
	for _, sp := range saved.Phases {
		if sp.ID == 1 {
			parse = sp
		}
	}
	if parse.Label != "parse numbers" || parse.Color != phase.Color(0) || len(parse.Vector) == 0 {
		t.Fatalf("saved phase 1 = %+v, want label \"parse numbers\", colour %s and a vector", parse, phase.Color(0))
	}
	if saved.Params.Window != 3 || saved.Params.Count != "self" || len(saved.Intervals) != phasesKey.Get(s.Get("one")).Vectors.Len() {
		t.Errorf("saved params %+v with %d intervals; want window 3, count self, one entry per interval", saved.Params, len(saved.Intervals))
	}

	rec, err := RunForTest(t, s, "load phasedemo-2.trace as two\nphases using=one.json")
	if err != nil {
		t.Fatal(err)
	}
	two := s.Get("two")
	truth := phase.Truth(two.Profile, phasesKey.Get(two).Vectors, "region")
	hits, n := 0, 0
	for i, l := range truth {
		if l == "parse" {
			n++
			if phasesKey.Get(two).Result.Of[i] == 1 {
				hits++
			}
		}
	}
	if n == 0 || float64(hits) < 0.8*float64(n) {
		t.Errorf("second run: %d of %d parse intervals in saved phase 1, want at least 80%%", hits, n)
	}
	table := rec.Bundles()[1]
	if !strings.Contains(table["text/plain"].(string), "parse numbers") || !strings.Contains(table["text/html"].(string), "background:"+phase.Color(0)) {
		t.Errorf("phases table of the second run lacks the saved label or the colour swatch:\n%s", table["text/plain"])
	}
}

func TestPhasesPictures(t *testing.T) {
	s := phaseSession(t)
	rec, err := RunForTest(t, s, "load phasedemo-1.trace\nsimilarity\ntimeline")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	if len(b) != 3 {
		t.Fatalf("got %d bundles, want load, similarity, timeline", len(b))
	}
	for _, pic := range b[1:] {
		svg, _ := kerneltest.SVG(pic)
		if !strings.HasPrefix(svg, "<svg") || pic["text/html"] != kernel.PictureHTML([]byte(svg), pic["text/plain"].(string)) {
			t.Errorf("picture bundle lacks the SVG: %.200s", svg)
		}
	}
	if alt := b[2]["text/plain"].(string); !strings.HasPrefix(alt, "phases of phasedemo-1 over time: 1[") {
		t.Errorf("timeline text = %.100s", alt)
	}
}

func TestPhasesErrors(t *testing.T) {
	s := phaseSession(t)
	if err := os.WriteFile(filepath.Join(s.Dir, "bad.json"), []byte(`{"params": {"window": 3}, "phases": [{"id": "x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ code, want string }{
		{"load demo:profvis-toy\nphases", "no time-ordered samples"},
		{"load phasedemo-1.trace\nphases window=0", "window=0"},
		{"load phasedemo-1.trace\nphases eps=2", "between 0 and 1"},
		{"load phasedemo-1.trace\nphases count=calls", "count"},
		{"load phasedemo-1.trace as fresh\nlabel 1 x", "run phases first"},
		{"load phasedemo-1.trace\nphases\nlabel 99 x", "no phase 99"},
		{"load phasedemo-1.trace\nphases using=bad.json", "byte"},
		{"load phasedemo-1.trace\nphases using=missing.json", "missing.json"},
	}
	for _, tc := range tests {
		_, err := RunForTest(t, s, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.code, err, tc.want)
		}
	}
}

// TestLabelsFollowVectors checks that a re-run with other parameters keeps
// a label on the phase that does the same work (here sorting: slices),
// whatever its new id, and drops it where the vectors no longer match.
func TestLabelsFollowVectors(t *testing.T) {
	s := phaseSession(t)
	if _, err := RunForTest(t, s, "load phasedemo-1.trace as one\nphases\nlabel 2 sort\nphases window=5 eps=0.8 delta=0.8"); err != nil {
		t.Fatal(err)
	}
	st := phasesKey.Get(s.Get("one"))
	for _, ph := range st.Result.Phases {
		heavy := topNames(nil, st.Result.Names, ph.Vector())
		if sorting := strings.HasPrefix(heavy, "slices"); sorting != (ph.Label == "sort") && ph.Intervals > 1 {
			t.Errorf("phase %d (%s) has label %q", ph.ID, heavy, ph.Label)
		}
	}
	if _, err := RunForTest(t, s, "phases count=total"); err != nil {
		t.Fatal(err)
	}
	for _, ph := range phasesKey.Get(s.Get("one")).Result.Phases {
		if ph.Label != "" {
			t.Errorf("count=total vectors are not comparable with count=self ones, yet phase %d kept label %q", ph.ID, ph.Label)
		}
	}
}

// repeat returns n copies of row.
func repeat(n int, row []int) [][]int {
	out := make([][]int, n)
	for i := range out {
		out[i] = row
	}
	return out
}

// phasesOf runs a cell and returns the phase ids of profile name's last
// run, as "[1 1 2 …]".
func phasesOf(t *testing.T, s *kernel.Session, name, cell string) string {
	t.Helper()
	if _, err := RunForTest(t, s, cell); err != nil {
		t.Fatalf("%s: %v", cell, err)
	}
	return fmt.Sprint(phasesKey.Get(s.Get(name)).Result.Of)
}

// TestPhasesDeltaOption checks that delta= is the δ of resuming an earlier
// phase, apart from eps=. Intervals of x alone (a), then of x and y (c),
// 40 samples of each (enough that sampling noise lifts a cosine by less
// than 1%), with window=1: by hand, c's vector (1,1) meets phase 1's (1,0)
// at cos 45° = 0.707, below ε = 0.9; with δ = 0.5 the best earlier phase,
// 1 itself, is resumed, and stays so (0.894, 0.894, then 0.928 > ε): one
// phase. With δ = 0.9, c starts phase 2, and a resumes 1.
func TestPhasesDeltaOption(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	a, c := []int{40, 0}, []int{40, 40}
	v8Intervals(t, filepath.Join(s.Dir, "ac.cpuprofile"), []string{"x", "y"}, [][]int{a, a, c, c, a, a})
	load := "load ac.cpuprofile value=samples\n"
	if got := phasesOf(t, s, "ac", load+"phases interval=10ms window=1 eps=0.9 delta=0.5"); got != "[1 1 1 1 1 1]" {
		t.Errorf("eps=0.9 delta=0.5: phases %s, want [1 1 1 1 1 1]", got)
	}
	if got := phasesOf(t, s, "ac", "phases interval=10ms window=1 eps=0.9 delta=0.9"); got != "[1 1 2 2 1 1]" {
		t.Errorf("eps=0.9 delta=0.9: phases %s, want [1 1 2 2 1 1]", got)
	}
	if got := phasesOf(t, s, "ac", "phases interval=10ms window=1 eps=0.5 delta=0.9"); got != "[1 1 1 1 1 1]" {
		t.Errorf("eps=0.5 delta=0.9: phases %s, want [1 1 1 1 1 1] (0.707 > ε keeps phase 1)", got)
	}
}

// TestPhasesStrictOption checks strict= on direct switches a → b → a with
// the default window of 3, worked out by hand in phase's
// TestDetectEmptyAndReturn: under the paper's rule alone the switches
// leave transition phases (2, 4) and the return to a gets new ids for
// good (4, 5, 5); by default the transitions join their neighbours and a
// is phase 1 again.
func TestPhasesStrictOption(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	a, b := []int{50, 10, 0}, []int{0, 10, 50}
	rows := append(append(repeat(4, a), repeat(4, b)...), repeat(3, a)...)
	v8Intervals(t, filepath.Join(s.Dir, "ab.cpuprofile"), []string{"x", "y", "z"}, rows)
	load := "load ab.cpuprofile value=samples\n"
	if got := phasesOf(t, s, "ab", load+"phases interval=10ms strict=true"); got != "[1 1 1 1 2 3 3 3 4 5 5]" {
		t.Errorf("strict=true: phases %s, want [1 1 1 1 2 3 3 3 4 5 5]", got)
	}
	if got := phasesOf(t, s, "ab", "phases interval=10ms strict=false"); got != "[1 1 1 1 2 2 2 2 1 1 1]" {
		t.Errorf("strict=false: phases %s, want [1 1 1 1 2 2 2 2 1 1 1]", got)
	}
}

// TestPhasesDefaultInterval: phases says which interval it chose and why:
// the demo recording (1,196 samples over 8.1 s) gets intervals of 100ms,
// about 20 samples each; interval= overrides it, without the note.
func TestPhasesDefaultInterval(t *testing.T) {
	rec, err := RunForTest(t, nil, "load demo:phasedemo as run\nphases\nphases interval=50ms")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	var notes []string
	for _, bundle := range b {
		if text, _ := bundle["text/plain"].(string); strings.Contains(text, "intervals of") {
			notes = append(notes, text)
		}
	}
	if len(notes) != 2 {
		t.Fatalf("%d phase tables, want 2", len(notes))
	}
	for _, want := range []string{
		"82 intervals of 100ms, count=self over 13 names of the current view; window=3 eps=0.9 delta=0.9; 4 phases; ",
		"the samples spread over 3.7 names, so a steady phase's window of about 53 samples reads 0.98",
		"the interval is the default, for about 20 samples an interval on average (1196 samples over 8.123973568s), " +
			"the fewest that make a vector (interval=D sets another)",
	} {
		if !strings.Contains(notes[0], want) {
			t.Errorf("phases note:\n%s\nwant %q", notes[0], want)
		}
	}
	if !strings.Contains(notes[1], "163 intervals of 50ms") || strings.Contains(notes[1], "the default") {
		t.Errorf("phases interval=50ms note:\n%s", notes[1])
	}
}
