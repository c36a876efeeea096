package commands

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestFitCommand: fit sets the profile's levels (view shows them after),
// says what it shows against pprof's -nodecount, keeps a region on request
// even when it hides no weight, and says when the budget is below the
// fully compacted view.
func TestFitCommand(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nfit nodes=5")
	if err != nil {
		t.Fatal(err)
	}
	out := rec.Bundles()[len(rec.Bundles())-1]["text/plain"].(string)
	for _, want := range []string{
		"fit nodes=5: 11 call-tree nodes → 5 compacted nodes; shown with its own name: 6 of 6 (100.0%); the 5 heaviest functions (pprof -nodecount=5): 100.0%",
		"    lib3.Signal.travel [5]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fit nodes=5 lacks %q:\n%s", want, out)
		}
	}
	rec, err = RunForTest(t, s, "view")
	if err != nil || !strings.Contains(rec.Bundles()[0]["text/plain"].(string), "→ 5 compacted nodes") {
		t.Errorf("view after fit: %v\n%v", err, rec.Bundles())
	}
	rec, err = RunForTest(t, s, "fit nodes=8 keep=Muscle")
	if out := rec.Bundles()[0]["text/plain"].(string); err != nil || !strings.Contains(out, "lib2.Muscle") {
		t.Errorf("fit nodes=8 keep=Muscle shows no Muscle: %v\n%s", err, out)
	}
	rec, err = RunForTest(t, s, "fit nodes=2")
	if out := rec.Bundles()[0]["text/plain"].(string); err != nil || !strings.Contains(out, "→ 3 compacted nodes, more than 2: the fully compacted view has that many already") {
		t.Errorf("fit nodes=2: %v\n%s", err, out)
	}
	if _, err := RunForTest(t, s, "fit nodes=0"); err == nil || !strings.Contains(err.Error(), "nodes=0: want at least 1") {
		t.Errorf("fit nodes=0: %v", err)
	}
}
