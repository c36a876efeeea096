package phase

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// demo loads a recording of notebooks/phasedemo and its interval vectors at
// level 1 (packages: strconv, slices, crypto/…, compress/flate, runtime).
func demo(t testing.TB, file string, c Count) (*analysis.Profile, *Vectors) {
	t.Helper()
	path := filepath.Join("..", "notebooks", "data", file)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := analysis.ParseGoTrace(path, data)
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	v, err := Build(tr, LevelDims(tr, 1), Options{Count: c})
	if err != nil {
		t.Fatal(err)
	}
	return p, v
}

// TestDemoPhases checks detection on the demo recordings against the phases
// the program marked with trace regions: boundaries within ω intervals, the
// returning phase keeps its id, idle is the empty phase.
func TestDemoPhases(t *testing.T) {
	for _, file := range []string{"phasedemo-1.trace", "phasedemo-2.trace"} {
		t.Run(file, func(t *testing.T) {
			p, v := demo(t, file, CountSelf)
			truth := Truth(p, v, "region")
			r, err := Detect(v, DefaultParams(), nil)
			if err != nil {
				t.Fatal(err)
			}
			ids := IDs(truth)
			s := Score(ids, r.Of, r.Params.Window)
			t.Logf("%d intervals, %d phases: precision %.2f recall %.2f ARI %.3f recurrence %.2f", v.Len(), s.Phases, s.Precision, s.Recall, s.ARI, s.Recurrence)
			line := []byte{}
			for i := range r.Of {
				line = append(line, byte('0'+r.Of[i]))
			}
			t.Logf("detected %s", line)
			line = line[:0]
			for i := range ids {
				line = append(line, byte('0'+ids[i]))
			}
			t.Logf("truth    %s", line)
		})
	}
}
