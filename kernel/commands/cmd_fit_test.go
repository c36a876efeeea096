package commands

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestFitCommand: fit sets the profile's levels (view shows them after),
// says what it shows against pprof's -nodecount, keeps a region on request
// even when it hides no weight, and below the fully compacted view folds
// the lighter regions into "other", says so, and keeps the folded view
// until a step unfolds it.
func TestFitCommand(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nfit nodes=5")
	if err != nil {
		t.Fatal(err)
	}
	out := rec.Bundles()[len(rec.Bundles())-1]["text/plain"].(string)
	for _, want := range []string{
		"fit nodes=5: 11 call-tree nodes → 5 nodes. The function at the top of the stack is shown under its full name for 6 of 6 (100.0%); " +
			"the rest is under a package, a class or \"other\". pprof -nodecount=5 lists the 5 heaviest functions alone, without their callers: " +
			"they hold 100.0% as their own (flat) weight",
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
	want := "fit nodes=2: 11 call-tree nodes → 2 nodes. At level 1, the coarsest, the view has 3 compacted nodes already, " +
		"so 2 of the lighter ones fold into 1 \"other\" node, under its parent, with 6 of 6 (100.0%) of the samples. " +
		"The function at the top of the stack is shown under its full name for 0 of 6 (0.0%)"
	if out := rec.Bundles()[0]["text/plain"].(string); err != nil || !strings.Contains(out, want) || !strings.Contains(out, "\n  other (2 nodes) [6]") {
		t.Errorf("fit nodes=2: %v\n%s\nwant %q", err, out, want)
	}
	rec, err = RunForTest(t, s, "view")
	if out := rec.Bundles()[0]["text/plain"].(string); err != nil || !strings.Contains(out, "→ 2 compacted nodes") {
		t.Errorf("view after fit nodes=2: %v\n%s", err, out)
	}
	if _, err = RunForTest(t, s, `compact "lib1 > other (2 nodes)"`); err == nil || !strings.Contains(err.Error(), "holds 2 lighter nodes folded together") {
		t.Errorf("compact the fold node: %v, want a refusal", err)
	}
	rec, err = RunForTest(t, s, "expand lib1")
	if out := rec.Bundles()[0]["text/plain"].(string); err != nil || !strings.Contains(out, "lib1.Whale [6]") || strings.Contains(out, "other") {
		t.Errorf("expand lib1 after fit nodes=2: %v\n%s\nwant the whole view, expanded", err, out)
	}
	if _, err := RunForTest(t, s, "fit nodes=0"); err == nil || !strings.Contains(err.Error(), "nodes=0: want at least 1") {
		t.Errorf("fit nodes=0: %v", err)
	}
}
