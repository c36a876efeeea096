package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// The paper's worked example through the commands (DESIGN.md §5): Figures
// 2, 6, 7 and 10 as `view` prints them. Handles are hashes of the path of
// names, so they are part of the golden text.
var viewGolden = []struct{ code, want string }{
	{"level 99", `level 99 on 11 of 11 call-tree nodes
toy: 11 call-tree nodes → 11 compacted nodes (samples)
lib1.Whale.breath [6]  (2ebc)
  lib1.Mammal.inhale [6]  (a919)
    lib2.Lung.inhale [6]  (2844)
      lib2.Muscle.contract [4]  (adce)
        lib2.Nerve.transmit [3]  (dce1)
          lib3.Signal.travel [3]  (eb66)
        lib3.Pressure.foo [1]  (6303)
          lib3.Blood.flow [1]  (527a)
      lib2.Muscle.stop [2]  (f4b9)
        lib2.Nerve.transmit [2]  (c225)
          lib3.Signal.travel [2]  (9a50)
`},
	{"level 1", `level 1 on 11 of 11 call-tree nodes
toy: 11 call-tree nodes → 3 compacted nodes (samples)
lib1 [6]  (8a70)
  lib2 [6]  (a5d1)
    lib3 [6]  (212e)
`},
	{`expand "lib1 > lib2"`, `toy: 11 call-tree nodes → 6 compacted nodes (samples)
lib1 [6]  (8a70)
  lib2.Lung [6]  (ad9e)
    lib2.Muscle [6]  (fe77)
      lib2.Nerve [5]  (41b4)
        lib3 [5]  (212e)
      lib3 [1]  (f3ac)
`},
	{"level 99\nlevel 1 where=^lib2\\.", `level 1 on 5 of 11 call-tree nodes
toy: 11 call-tree nodes → 6 compacted nodes (samples)
lib1.Whale.breath [6]  (2ebc)
  lib1.Mammal.inhale [6]  (a919)
    lib2 [6]  (a5d1)
      lib3.Signal.travel [5]  (eb66)
      lib3.Pressure.foo [1]  (6303)
        lib3.Blood.flow [1]  (527a)
`},
}

func TestViewFigures(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy"); err != nil {
		t.Fatal(err)
	}
	for _, g := range viewGolden {
		rec, err := RunForTest(t, s, g.code)
		if err != nil {
			t.Fatalf("%s: %v", g.code, err)
		}
		b := rec.Bundles()
		if got := b[len(b)-1]["text/plain"]; got != g.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", g.code, got, g.want)
		}
		again, _ := RunForTest(t, s, "view")
		if got := again.Bundles()[0]["text/plain"].(string); !strings.HasSuffix(g.want, got) {
			t.Errorf("view after %s:\n%s\nwant the tree just shown", g.code, got)
		}
	}
}

// TestStepRefused: the two ProfVis refusals, with their advice, leave the
// view as it was.
func TestStepRefused(t *testing.T) {
	cases := []struct{ setup, step, want string }{
		{"level 1\nexpand \"lib1 > lib2\"", `compact "lib1 > lib2.Lung > lib2.Muscle"`,
			"compact lib2.Muscle refused: lib2 would be coarser than its parent lib2.Lung (R1: a child cannot take over its parent); compact lib2.Lung first"},
		{"level 99\ncompact \"lib1.Whale.breath > lib1.Mammal.inhale > lib2.Lung.inhale\"", `compact ad9e`,
			"compact lib2.Lung refused: lib2 would absorb lib2.Muscle.contract, two or more levels finer (R2: one package level at a time); lower that to lib2.Muscle first"},
		{"level 1", "compact all", "compact all: already at level 1 (the top name element); nothing to compact"},
	}
	for _, c := range cases {
		s := kernel.NewSession(t.TempDir(), testTable())
		if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\n"+c.setup); err != nil {
			t.Fatalf("%s: %v", c.setup, err)
		}
		before := viewOf(t, s.Current())
		_, err := RunForTest(t, s, c.step)
		je, ok := err.(*jupyter.Error)
		if !ok || !strings.HasSuffix(je.Value, c.want) {
			t.Errorf("%s: error %v, want ...%s", c.step, err, c.want)
		}
		if after := viewOf(t, s.Current()); after != before {
			t.Errorf("%s: the refused step changed the view", c.step)
		}
	}
}

func TestTargets(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 1\nexpand a5d1\nexpand toy all"); err != nil {
		t.Fatal(err)
	}
	got := text(viewOf(t, s.Current()))
	if _, err := RunForTest(t, s, "level 2\nlevel 3 where=^lib2"); err != nil {
		t.Fatal(err)
	}
	if want := text(viewOf(t, s.Current())); got != want {
		t.Errorf("level 1, expand lib2, expand all:\n%s\nwant the same as level 2, then 3 for lib2:\n%s", got, want)
	}
	for _, bad := range []string{"expand nope", `expand "lib1 > lib9"`, "compact"} {
		_, err := RunForTest(t, s, bad)
		if je, ok := err.(*jupyter.Error); !ok || je.Name != "UsageError" {
			t.Errorf("%s: error %v, want a UsageError", bad, err)
		}
	}
	rec, err := RunForTest(t, s, "level 99\nlevel 1 where=Nerve")
	if err != nil {
		t.Fatal(err)
	}
	want := "note: this view breaks R1: lib2 is coarser than its parent lib2.Muscle.contract"
	if got := rec.Text(); !strings.Contains(got, want) {
		t.Errorf("level 1 where=Nerve:\n%s\nwant a line %q", got, want)
	}
}

func text(v *compaction.View) string {
	var b strings.Builder
	v.WriteText(&b, 0)
	return b.String()
}

// TestExportJSON checks the export contract against the view it exports.
func TestExportJSON(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 1\nexpand \"lib1 > lib2\"\nexport toy.json"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, "toy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"profile", "value", "unit", "nodes_before", "nodes_after", "roots"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("export JSON lacks %q: %s", k, data)
		}
	}
	if doc["profile"] != "toy" || doc["value"] != "samples" || doc["nodes_before"] != 11.0 || doc["nodes_after"] != 6.0 {
		t.Errorf("export JSON header = %v", doc)
	}
	var nodes int
	var walk func(n map[string]any, up float64)
	walk = func(n map[string]any, up float64) {
		nodes++
		if !reflect.DeepEqual(keys(n), []string{"children", "handle", "members", "name", "self", "total"}) {
			t.Errorf("node keys %v", keys(n))
		}
		kids := n["children"].([]any)
		sum := 0.0
		for _, k := range kids {
			c := k.(map[string]any)
			sum += c["total"].(float64)
			walk(c, n["total"].(float64))
		}
		if n["self"].(float64) != n["total"].(float64)-sum {
			t.Errorf("node %v: self %v, total %v, children %v", n["name"], n["self"], n["total"], sum)
		}
	}
	for _, r := range doc["roots"].([]any) {
		walk(r.(map[string]any), 0)
	}
	if nodes != 6 {
		t.Errorf("export JSON has %d nodes, want 6", nodes)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestCompleteTarget(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 1"); err != nil {
		t.Fatal(err)
	}
	got := completeTarget(&kernel.Call{Session: s, Profiles: []*kernel.Loaded{s.Current()}}, "a5")
	if !reflect.DeepEqual(got, []string{"all", "lib1", "a5d1"}) {
		t.Errorf("completeTarget(a5) = %v, want all, lib1 and the handle of lib2", got)
	}
}
