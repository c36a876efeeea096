package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// machineForm is what a command's bundles say independently of how the
// profile's name and filters are titled: the JSON and the SVG, in order.
func machineForm(t *testing.T, rec *kernel.Recorder) string {
	t.Helper()
	var parts []string
	for _, b := range rec.Bundles() {
		var form []any
		if v, ok := b["application/json"]; ok {
			form = append(form, v)
		}
		if svg, ok := kerneltest.SVG(b); ok {
			form = append(form, svg)
		}
		for _, v := range form {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, string(data))
		}
	}
	return strings.Join(parts, "\n")
}

// TestTreeCommandsFilter: every command that reads a tree takes focus,
// ignore, hide and value; given as its own options or kept by filter as a
// standing filter, a filter gives the same tables and pictures, and not
// those of the whole profile.
func TestTreeCommandsFilter(t *testing.T) {
	setup := "load " + v8Weighted(t) + " as app\nlevel 2\n"
	const f = "focus=main ignore=hash hide=^work$"
	var tree []string
	for _, c := range testTable().Commands() {
		if !c.Tree || c.Profiles == 2 { // commands of two profiles have their own tests (cmd_diff_test.go)
			continue
		}
		tree = append(tree, c.Name)
		for _, o := range append(kernel.FilterOptions, kernel.ValueOption) {
			if !slices.ContainsFunc(c.AllOptions(), func(x kernel.Option) bool { return x.Name == o.Name }) {
				t.Errorf("%s reads a tree but has no option %s", c.Name, o.Name)
			}
		}
		run := func(code string) string {
			rec, err := RunForTest(t, nil, setup+code)
			if err != nil {
				t.Fatalf("%q: %v", code, err)
			}
			rec.Events = rec.Events[2:] // load's and level's answers
			return machineForm(t, rec)
		}
		// sandwich's default target, idle, is one the filter leaves alone,
		// and its shares are of the profile's total, before filters: main's
		// callees are what the filter changes. patterns reads counts, which
		// this profile has only as entries recovered from samples. calls
		// lists the calls behind an arc of entities (by package: app.js,
		// idle.js, lib.js).
		cmd := map[string]string{"sandwich": `sandwich "app.js main"`, "patterns": "patterns counts=recovered", "calls": "calls app.js lib.js"}[c.Name]
		if cmd == "" {
			cmd = c.Name
		}
		own, standing, whole := run(cmd+" "+f), run("filter "+f+"\n"+cmd), run(cmd)
		if own != standing {
			t.Errorf("%s %s and filter %s + %s differ:\n%.300s\n%.300s", c.Name, f, f, c.Name, own, standing)
		}
		if own == whole {
			t.Errorf("%s %s gives the same as %s alone", c.Name, f, c.Name)
		}
	}
	for _, want := range []string{"flame", "show", "top", "tree", "view"} {
		if !slices.Contains(tree, want) {
			t.Errorf("%s does not read a tree (Command.Tree); tree commands are %q", want, tree)
		}
	}
}

// TestFilterCommand: the standing filter's options replace their own kind,
// off drops it, info shows it, and later commands and export respect it.
func TestFilterCommand(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	steps := []struct{ code, want string }{
		{"load demo:profvis-toy as toy\nfilter", "toy: no filter\n"},
		{"filter focus=Muscle hide=^lib1", "toy: filter focus=Muscle hide=^lib1; keeps 6 of 6 (100.0%) in samples\n"},
		{"filter ignore=stop", "toy: filter focus=Muscle ignore=stop hide=^lib1; keeps 4 of 6 (66.7%) in samples\n"},
		{"filter hide=", "toy: filter focus=Muscle ignore=stop; keeps 4 of 6 (66.7%) in samples\n"},
		{"filter toy off", "toy: no filter\n"},
	}
	for _, st := range steps {
		rec, err := RunForTest(t, s, st.code)
		if err != nil {
			t.Fatalf("%q: %v", st.code, err)
		}
		if got := rec.Stdout("stdout"); got != st.want {
			t.Errorf("%q printed %q, want %q", st.code, got, st.want)
		}
	}
	rec, err := RunForTest(t, s, "filter ignore=Nerve\ninfo\nexport toy kept.folded\nload kept.folded\ntop n=0")
	if err != nil {
		t.Fatal(err)
	}
	if info := rec.Bundles()[0]["text/plain"].(string); !strings.Contains(info, "filter           ignore=Nerve; keeps 1 of 6 (16.7%) in samples") {
		t.Errorf("info does not show the filter:\n%s", info)
	}
	if got := mustRead(t, s.Path("kept.folded")); got != "lib1.Whale.breath;lib1.Mammal.inhale;lib2.Lung.inhale;lib2.Muscle.contract;lib3.Pressure.foo;lib3.Blood.flow 1\n" {
		t.Errorf("export under filter ignore=Nerve wrote\n%s", got)
	}
	for _, tc := range []struct{ code, want string }{
		{"filter nonsense", `filter: "nonsense": write off, or focus=, ignore=, hide=, thread=, process=, tagfocus= and tagignore= options`},
		{"filter off focus=x", "off drops the whole filter"},
		{"filter focus=(", "focus=( is not a regular expression"},
		{"filter value=cpu", "unknown option value"},
	} {
		if _, err := RunForTest(t, s, tc.code); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error containing %q", tc.code, err, tc.want)
		}
	}
}

// TestFilterKeepsLevels: a filter carries the granularity state over. With
// focus or ignore alone every node of the filtered tree is the node of the
// same path in the whole tree and keeps its level; a filter that drops
// nothing and then off give back the state node for node. (Nodes a filter
// dropped come back at their parent's level.)
func TestFilterKeepsLevels(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 99\ncompact \"lib1.Whale.breath > lib1.Mammal.inhale\"\nlevel 3 where=Nerve"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("toy")
	whole, levels := l.Tree(), l.State().Levels()
	byPath := pathLevels(whole, levels)
	if _, err := RunForTest(t, s, "filter ignore=stop"); err != nil {
		t.Fatal(err)
	}
	if l.Tree() == whole {
		t.Fatal("filter did not rebuild the tree")
	}
	got := pathLevels(l.Tree(), l.State().Levels())
	for path, g := range got {
		if g != byPath[path] {
			t.Errorf("under ignore=stop, %s is at level %d, was %d", path, g, byPath[path])
		}
	}
	if len(got) >= len(byPath) || len(got) == 0 {
		t.Errorf("ignore=stop kept %d of %d nodes", len(got), len(byPath))
	}
	if _, err := RunForTest(t, s, "filter off\nlevel 99\ncompact \"lib1.Whale.breath > lib1.Mammal.inhale\"\nlevel 3 where=Nerve\nfilter focus=.\nfilter off"); err != nil {
		t.Fatal(err)
	}
	if got := l.State().Levels(); !slices.Equal(got, levels) || l.Tree() == whole {
		t.Errorf("levels after focus=. and off = %v, want %v", got, levels)
	}
}

// pathLevels maps each node's path of frame names to its level.
func pathLevels(t *analysis.Tree, levels []int32) map[string]int32 {
	out := map[string]int32{}
	for n := range int32(t.Len()) {
		out[namePath(t, n)] = levels[n]
	}
	return out
}

// namePath is the path of frame names from a root to n, "a > b > c".
func namePath(t *analysis.Tree, n int32) string {
	var names []string
	for ; n >= 0; n = t.Parent[n] {
		names = append(names, t.Name(n))
	}
	slices.Reverse(names)
	return strings.Join(names, " > ")
}

// TestCarryStateHide: under hide, a node keeps the level of the node of the
// same frame at the same place of the stack, also when its parent was
// hidden.
func TestCarryStateHide(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	frame := func(name string) int32 { return b.Frame(analysis.Frame{Name: name}) }
	a, h, c, d := frame("a"), frame("h"), frame("c"), frame("d")
	b.Add(b.Stack([]int32{a, h, c}), []int64{1}, 0, false, "", nil)
	b.Add(b.Stack([]int32{a, d}), []int64{1}, 0, false, "", nil)
	p := b.Finish()
	whole := analysis.NewTree(p)
	levels := map[string]int32{"a": 2, "a > d": 3, "a > h": 4, "a > h > c": 5}
	lv := make([]int32, whole.Len())
	for n := range lv {
		lv[n] = levels[namePath(whole, int32(n))]
	}
	l := kernel.NewLoaded("p", p, whole)
	l.SetState(compaction.NewStateOf(whole, lv), nil)
	l.SetFilter(analysis.Filter{Hide: regexpMust(t, "^h$")})
	got := pathLevels(l.Tree(), l.State().Levels())
	if want := map[string]int32{"a": 2, "a > d": 3, "a > c": 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("levels under hide=^h$ = %v, want %v", got, want)
	}
}

// TestTreeCommandsValue: value= of a tree command reads another value type
// as if the profile had been loaded with it.
func TestTreeCommandsValue(t *testing.T) {
	path := v8Weighted(t)
	for _, c := range testTable().Commands() {
		if !c.Tree || c.Profiles == 2 || c.Name == "calls" { // see TestTreeCommandsFilter; calls counts calls, which no value type weighs
			continue
		}
		run := func(load, code string) string {
			rec, err := RunForTest(t, nil, "load "+path+" as app "+load+"\n"+code)
			if err != nil {
				t.Fatalf("%q: %v", code, err)
			}
			rec.Events = rec.Events[1:]
			return machineForm(t, rec)
		}
		// patterns finds none on this profile under its defaults, whatever the value:
		// looser rules find D, whose evidence is in the value's unit.
		code := c.Name + map[string]string{"patterns": " tolerance=0.5 ratio=2 counts=recovered"}[c.Name]
		own, loaded, other := run("value=samples", code+" value=wall"), run("value=wall", code), run("value=samples", code)
		if own != loaded || own == other {
			t.Errorf("%s value=wall: same as loaded with wall %v, same as samples %v; want true, false", c.Name, own == loaded, own == other)
		}
	}
	fib, err := filepath.Abs("../../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunForTest(t, nil, "load "+fib+"\nview value=nosuch"); err == nil || !strings.Contains(err.Error(), "value=nosuch: fib has no such value type; it has samples, cpu") {
		t.Errorf("view value=nosuch: %v", err)
	}
}

// v8Weighted writes a timed V8 CPU profile (so phases runs on it too) and
// returns its path: 400 ms in 40 runs of 10 samples, 3 in main > work, 2
// in main > work > hash and 5 in main > idle; in the first 20 runs the work
// samples are 1.5 ms apart and the idle ones 0.5 ms, in the last 20 the
// other way round. Samples and wall time then weigh the names differently
// over time, so a value type or a filter changes every command's tables
// and pictures, phases' included.
func v8Weighted(t *testing.T) string {
	t.Helper()
	nodes := `[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},` +
		`{"id":2,"callFrame":{"functionName":"main","url":"app.js"},"children":[3,5]},` +
		`{"id":3,"callFrame":{"functionName":"work","url":"app.js"},"children":[4]},` +
		`{"id":4,"callFrame":{"functionName":"hash","url":"lib.js"}},` +
		`{"id":5,"callFrame":{"functionName":"idle","url":"idle.js"}}]`
	var samples, deltas []string
	for i := range 40 {
		busy, idle := "1500", "500"
		if i >= 20 {
			busy, idle = idle, busy
		}
		for _, n := range []string{"3", "3", "3", "4", "4", "5", "5", "5", "5", "5"} {
			d := idle
			if n != "5" {
				d = busy
			}
			samples, deltas = append(samples, n), append(deltas, d)
		}
	}
	data := `{"nodes":` + nodes + `,"startTime":0,"endTime":400000,"samples":[` + strings.Join(samples, ",") +
		`],"timeDeltas":[` + strings.Join(deltas, ",") + `]}`
	path := filepath.Join(t.TempDir(), "app.cpuprofile")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
