package commands

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// TestSandwichTable: the sandwich of a function of the ProfVis toy, read
// at full names while the view is at level 1, and of a handle, which stands
// for its node's name wherever it occurs.
func TestSandwichTable(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nsandwich lib2.Nerve.transmit")
	if err != nil {
		t.Fatal(err)
	}
	rows, text := lastTable(t, rec)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprint(r["role"], " ", r["name"], " ", r["total"], " ", r["share"], " ", r["profile%"], " ", r["self"]))
	}
	want := []string{"target lib2.Nerve.transmit 5 1 0.8333333333333334 0", "caller lib2.Muscle.contract 3 0.6 0.5 <nil>",
		"caller lib2.Muscle.stop 2 0.4 0.3333333333333333 <nil>", "callee lib3.Signal.travel 5 1 0.8333333333333334 5"}
	if !reflect.DeepEqual(got, want) || !strings.Contains(text, "over 2 places (2 outermost on their call paths); 2 callers, 1 callees; a function: read at full names") {
		t.Errorf("sandwich lib2.Nerve.transmit =\n%q\n%s\nwant\n%q", got, text, want)
	}
	if svg, _ := kerneltest.SVG(rec.Bundles()[len(rec.Bundles())-1]); !strings.Contains(svg, "toy · sandwich · lib2.Nerve.transmit") {
		t.Errorf("no sandwich picture:\n%.200s", svg)
	}
	if _, err := RunForTest(t, s, "level 99"); err != nil {
		t.Fatal(err)
	}
	v := viewOf(t, s.Get("toy"))
	i, err := v.Resolve("lib1.Whale.breath > lib1.Mammal.inhale > lib2.Lung.inhale > lib2.Muscle.stop > lib2.Nerve.transmit")
	if err != nil {
		t.Fatal(err)
	}
	rec, err = RunForTest(t, s, "sandwich "+v.Handle(i))
	if err != nil {
		t.Fatal(err)
	}
	if rows, text := lastTable(t, rec); rows[0]["total"] != int64(5) || !strings.Contains(text, "over 2 places") {
		t.Errorf("sandwich %s: target total %v, %s; want 5 over 2 places", v.Handle(i), rows[0]["total"], text)
	}
}

// TestSandwichCountsRecursionOnce: the target's total is its cum in top
// (pprof's), recursion counted once per stack, for every function of a
// recursive profile.
func TestSandwichCountsRecursionOnce(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "rec.folded", "main;f;g;f;h 4\nmain;f 1\nmain;g;f;f;g 2\nmain;h;g;h 3\nmain;g 5\n")
	s := kernel.NewSession(dir, testTable())
	rec, err := RunForTest(t, s, "load rec.folded as r\ntop n=0")
	if err != nil {
		t.Fatal(err)
	}
	top := rec.Bundles()[1]["application/json"].(map[string]any)
	for _, row := range top["rows"].([]map[string]any) {
		rec, err := RunForTest(t, s, "sandwich "+row["name"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if rows, _ := lastTable(t, rec); rows[0]["total"] != row["cum"] {
			t.Errorf("sandwich %s: target total %v, top's cum %v", row["name"], rows[0]["total"], row["cum"])
		}
	}
	if _, err := RunForTest(t, s, "sandwich nosuch"); err == nil || !strings.Contains(err.Error(), `no compacted node has handle or name "nosuch", nor a name ending with it`) {
		t.Errorf("sandwich nosuch: %v", err)
	}
}
