package phase

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestSavedRoundTrip(t *testing.T) {
	a, b, z := []float64{5, 1, 0}, []float64{0, 1, 5}, []float64{0, 0, 0}
	v := vectors([]string{"x", "y", "z"}, [][]float64{a, a, a, a, z, z, z, z, b, b, b, b})
	r, err := Detect(t.Context(), v, DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Phase(2).Label = "bee"
	var buf bytes.Buffer
	if err := Save(r, v, CountTotal).Write(&buf); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSaved(bytes.NewReader(buf.Bytes()), 0)
	if err != nil {
		t.Fatalf("ReadSaved(Save(...)) = %v\n%s", err, buf.String())
	}
	if s.Params.Count != "total" || s.Params.Window != 3 || len(s.Intervals) != v.Len() || s.Intervals[9].Phase != 2 {
		t.Errorf("saved params %+v, intervals %v", s.Params, s.Intervals)
	}
	var again bytes.Buffer
	if err := s.Write(&again); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Errorf("Write(ReadSaved(x)) differs from x:\n%s\nwant\n%s", again.String(), buf.String())
	}

	// A second run over other names in another order: b, a, then w, which
	// the saved set does not know. The saved phases give b id 2 with its
	// label and colour and a id 1 (the mixed windows between, transitions,
	// join them); w is a new phase, numbered after the saved ids.
	v2 := vectors([]string{"z", "y", "x", "w"}, [][]float64{{5, 1, 0, 0}, {5, 1, 0, 0}, {5, 1, 0, 0}, {5, 1, 0, 0}, {0, 1, 5, 0}, {0, 1, 5, 0}, {0, 1, 5, 0}, {0, 1, 5, 0},
		{0, 0, 0, 5}, {0, 0, 0, 5}, {0, 0, 0, 5}, {0, 0, 0, 5}})
	seed, err := s.Seed(v2.Names, 0)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Detect(t.Context(), v2, DefaultParams(), seed)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(r2.Of), "[2 2 2 2 1 1 1 1 3 3 3 3]"; got != want {
		t.Errorf("Detect(using saved) = %s, want %s", got, want)
	}
	if ph := r2.Phase(2); ph.Label != "bee" || ph.Color != Color(Hue(2)) || !ph.Saved {
		t.Errorf("reused phase 2 = %+v, want label bee, colour %s", ph, Color(Hue(2)))
	}
	if ph := r2.Phase(3); ph == nil || ph.Color != Color(Hue(3)) {
		t.Errorf("new phase = %+v, want id 3 after the saved ids", ph)
	}
}

func TestReadSavedErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"params": {"window": 3}, "phases": [`, "byte"},
		{`{"params": {"window": "3"}}`, "byte"},
		{`{"params": {}, "phases": [{"id": 1}, {"id": 1}]}`, "distinct"},
		{`{"params": {}, "phases": [{"id": -2}]}`, "id -2"},
		{`{"params": {}, "phases": [{"id": 1, "vector": {"a": -1}}]}`, `"a"`},
		{`{"params": {}, "colour": 1}`, "unknown field"},
	}
	for _, tc := range tests {
		if _, err := ReadSaved(strings.NewReader(tc.in), 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadSaved(%s) error = %v, want one mentioning %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadSaved(f *testing.F) {
	f.Add([]byte(`{"params": {"window": 3, "eps": 0.9}, "phases": [{"id": 1, "label": "a", "color": "#ff0000", "vector": {"x": 1}}], "intervals": [{"start": 0, "end": 1, "phase": 1}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSaved(bytes.NewReader(data), 0)
		if err != nil {
			return
		}
		seed, err := s.Seed([]string{"x", "y"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		v := vectors([]string{"x", "y"}, [][]float64{{1, 0}, {0, 1}, {1, 1}})
		if _, err := Detect(t.Context(), v, DefaultParams(), seed); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSimilarityMatchesPairwise(t *testing.T) {
	a, b, z := []float64{5, 1, 0}, []float64{0, 1, 5}, []float64{0, 0, 0}
	var rows [][]float64
	for i := range 23 {
		rows = append(rows, [][]float64{a, b, z, a, {1, 1, 1}}[(i/3)%5])
	}
	v := vectors([]string{"x", "y", "z"}, rows)
	// W_i recomputed from scratch for every i, then every pair.
	w := make([][]float64, len(rows))
	for i := range rows {
		sum := make([]float64, 3)
		for j := max(0, i-2); j <= i; j++ {
			for k, x := range rows[j] {
				sum[k] += x
			}
		}
		w[i] = normalized(sum)
	}
	for _, cells := range []int{MaxCells, 5} {
		s, err := NewSimilarity(t.Context(), v, 3, cells, 0)
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p < s.Side(); p++ {
			for q := 0; q < s.Side(); q++ {
				var mean float64
				for i := s.Bins[p]; i < s.Bins[p+1]; i++ {
					for j := s.Bins[q]; j < s.Bins[q+1]; j++ {
						mean += dot(w[i], w[j])
					}
				}
				mean /= float64((s.Bins[p+1] - s.Bins[p]) * (s.Bins[q+1] - s.Bins[q]))
				if got := s.At(p, q); math.Abs(got-mean) > 1e-12 {
					t.Fatalf("cells=%d: At(%d,%d) = %g, want mean of pairs %g", cells, p, q, got, mean)
				}
			}
		}
		if (cells == 5) != s.Averaged() {
			t.Errorf("cells=%d: Averaged() = %v", cells, s.Averaged())
		}
	}
}

// savedSeed reads a saved phase set and seeds it over names.
func savedSeed(t *testing.T, saved string, names []string) []*Phase {
	t.Helper()
	s, err := ReadSaved(strings.NewReader(saved), 0)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := s.Seed(names, 0)
	if err != nil {
		t.Fatal(err)
	}
	return seed
}

// TestSavedPhasesResumed: with the paper's rule alone (no settling to hide
// a miss), windows matching a saved phase are given that phase's id, and
// idle windows the empty phase's, whether or not the saved set has one.
func TestSavedPhasesResumed(t *testing.T) {
	names := []string{"x", "y"}
	rows := [][]float64{{4, 0}, {4, 0}, {0, 3}, {0, 0}, {0, 3}, {4, 0}}
	for _, saved := range []string{
		`{"params": {}, "phases": [{"id": 1, "vector": {"x": 1}}, {"id": 2, "vector": {"y": 1}}]}`,
		`{"params": {}, "phases": [{"id": 0}, {"id": 1, "vector": {"x": 1}}, {"id": 2, "vector": {"y": 1}}]}`,
		`{"params": {}, "phases": [{"id": 1, "vector": {"x": 1}}, {"id": 0}, {"id": 2, "vector": {"y": 1}}]}`,
	} {
		p := Params{Window: 1, Eps: 0.9, Delta: 0.9, Strict: true}
		res := detectRaw(t, vectors(names, rows), p, savedSeed(t, saved, names))
		if got := fmt.Sprint(res.Of); got != "[1 1 2 0 2 1]" {
			t.Errorf("saved %s: Detect = %s, want [1 1 2 0 2 1]", saved, got)
		}
	}
	// A saved vector over several names, at unit length as Save writes it
	// (and a zero weight, which a hand-written set may have).
	seed := savedSeed(t, `{"params": {}, "phases": [{"id": 5, "vector": {"x": 0.6, "y": 0.8, "z": 0}}]}`, names)
	if got := fmt.Sprint(detectRaw(t, vectors(names, [][]float64{{3, 4}, {6, 8}}), Params{Window: 1, Eps: 0.9, Delta: 0.9, Strict: true}, seed).Of); got != "[5 5]" {
		t.Errorf("saved (0.6, 0.8): Detect = %s, want [5 5]", got)
	}
}

// TestSavedPhaseNotProvisional: a run that starts in a saved phase keeps
// it while its score is above ε; only a phase this run started is
// provisional. Here the windows are exactly phase 2's direction, and
// phase 1, at cosine 0.958, would be resumed if phase 2 were provisional.
func TestSavedPhaseNotProvisional(t *testing.T) {
	names := []string{"x", "y"}
	seed := savedSeed(t, `{"params": {}, "phases": [{"id": 1, "vector": {"x": 1, "y": 0.3}}, {"id": 2, "vector": {"x": 1}}]}`, names)
	rows := [][]float64{{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}}
	if got := fmt.Sprint(detectRaw(t, vectors(names, rows), DefaultParams(), seed).Of); got != "[2 2 2 2 2]" {
		t.Errorf("Detect = %s, want [2 2 2 2 2]", got)
	}
}

// TestBestPhaseTie: two phases scoring exactly alike, the one created
// first wins, whatever order the index visits them in: here the saved
// set's first phase (id 1) uses only y, which the index visits after x.
func TestBestPhaseTie(t *testing.T) {
	names := []string{"x", "y"}
	seed := savedSeed(t, `{"params": {}, "phases": [{"id": 1, "vector": {"y": 1}}, {"id": 2, "vector": {"x": 1}}]}`, names)
	p := Params{Window: 1, Eps: 0.5, Delta: 0.5, Strict: true}
	if got := fmt.Sprint(detectRaw(t, vectors(names, [][]float64{{1, 1}}), p, seed).Of); got != "[1]" {
		t.Errorf("Detect = %s, want [1] (the first of two phases at cosine 1/√2)", got)
	}
}

// TestSaveInterval: a saved set records the interval length of a timed
// run wherever its recording starts, 0 for a series, and a run without
// intervals saves without one.
func TestSaveInterval(t *testing.T) {
	timed := vectors([]string{"x"}, [][]float64{{1}, {1}})
	for i := range timed.Intervals {
		timed.Intervals[i] = Interval{1_700_000_000_000_000_000 + int64(i)*10, 1_700_000_000_000_000_000 + int64(i+1)*10}
	}
	series := vectors([]string{"x"}, [][]float64{{1}, {1}})
	series.Series = true
	empty := &Vectors{Names: []string{"x"}, Off: []int{0}}
	for _, tc := range []struct {
		name string
		v    *Vectors
		want int64
	}{{"timed", timed, 10}, {"series", series, 0}, {"no intervals", empty, 0}} {
		r, err := Detect(t.Context(), tc.v, DefaultParams(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := Save(r, tc.v, CountSelf); s.Params.Interval != tc.want || len(s.Intervals) != tc.v.Len() {
			t.Errorf("%s: saved interval %d over %d intervals, want %d over %d", tc.name, s.Params.Interval, len(s.Intervals), tc.want, tc.v.Len())
		}
	}
}
