package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// writeTestFile writes data to name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lastTable returns the JSON rows and the text of the last table a cell
// showed.
func lastTable(t *testing.T, rec *kernel.Recorder) ([]map[string]any, string) {
	t.Helper()
	bs := rec.Bundles()
	for k := len(bs) - 1; k >= 0; k-- {
		if rows, ok := bs[k]["application/json"].([]map[string]any); ok {
			return rows, bs[k]["text/plain"].(string)
		}
	}
	t.Fatalf("no table among %d bundles", len(bs))
	return nil, ""
}

// TestDiffTable: the table of a small comparison across two formats (folded
// stacks against pprof), every column.
func TestDiffTable(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "base.folded", "main;a 3\nmain;b 1\n")
	writeTestFile(t, dir, "new.folded", "main;a 6\nmain;c 2\n")
	rec, err := RunForTest(t, kernel.NewSession(dir, testTable()), "load new.folded as n0\nexport n0 new.pb.gz\n"+
		"load base.folded as b\nload new.pb.gz as n\nlevel n 9\ndiff b n")
	if err != nil {
		t.Fatal(err)
	}
	rows, text := lastTable(t, rec)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprint(r["name"], " ", r["change"], " ", r["change%"], " ", r["base"], " ", r["new"], " ",
			r["self change"], " ", r["self change%"]))
	}
	want := []string{"a 3 1 3 6 3 1", "c 2 <nil> 0 2 2 <nil>", "b -1 -1 1 0 -1 -1", "main 4 1 4 8 0 <nil>"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff b n rows (name change change%% base new self-change self-change%%) =\n%q\nwant\n%q", got, want)
	}
	for _, s := range []string{"+3  +100.0%", "+2  new", "-1  -100.0%", "b → n: 4 call-tree nodes → 4 compacted nodes; BASE 4 → NEW 8 (+100.0%); 4 of 4 names, by the largest change of self, each name summed over its places"} {
		if !strings.Contains(text, s) {
			t.Errorf("diff b n text lacks %q:\n%s", s, text)
		}
	}
	if svg, _ := kerneltest.SVG(rec.Bundles()[len(rec.Bundles())-1]); !strings.Contains(svg, "b → n · differential icicle") {
		t.Errorf("diff b n drew no differential icicle:\n%.300s", svg)
	}
}

// TestDiffUnchangedRows: a ranking leaves out the nodes that did not
// change, says how many, and puts equal self changes by their change of
// total; by=tree lists every node.
func TestDiffUnchangedRows(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "base.folded", "main;a 3\nmain;b 1\nmain;k;x 5\nmain;k;y 2\n")
	writeTestFile(t, dir, "new.folded", "main;a 3\nmain;b 1\nmain;k;x 9\nmain;k;y 2\n")
	s := kernel.NewSession(dir, testTable())
	rec, err := RunForTest(t, s, "load base.folded as b\nload new.folded as n\nlevel b 9\nlevel n 9\ndiff b n")
	if err != nil {
		t.Fatal(err)
	}
	rows, text := lastTable(t, rec)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprint(r["name"], " ", r["change"], " ", r["self change"]))
	}
	// x changed its self; main and k only their totals, main's the same as
	// k's (a tie broken by name); a, b and y did not change.
	if want := []string{"x 4 4", "k 4 0", "main 4 0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("diff b n rows (name change self-change) = %q, want %q", got, want)
	}
	if want := "3 of 6 names, by the largest change of self, each name summed over its places; 3 unchanged not listed (by=tree lists every node)"; !strings.Contains(text, want) {
		t.Errorf("diff b n text lacks %q:\n%s", want, text)
	}
	rec, err = RunForTest(t, s, "diff b n by=tree")
	if err != nil {
		t.Fatal(err)
	}
	if rows, text := lastTable(t, rec); len(rows) != 6 || strings.Contains(text, "unchanged") {
		t.Errorf("diff b n by=tree: %d rows, want all 6, and no note of unchanged ones:\n%s", len(rows), text)
	}
}

// TestDiffRowsByFunctionAndPlace: a function reached from several places
// (syscall.Syscall under read, write and two paths through poll) is one
// row by default, summed over its places, and one row per place, named by
// the shortest tail of its path that tells it apart, with by=self; a
// function that calls itself counts its total once.
func TestDiffRowsByFunctionAndPlace(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "base.folded", "main;os.read;syscall.Syscall 4\nmain;os.write;syscall.Syscall 2\n"+
		"main;net.a;poll.wait;syscall.Syscall 1\nmain;net.b;poll.wait;syscall.Syscall 1\nmain;walk;visit;walk 3\n")
	writeTestFile(t, dir, "new.folded", "main;os.read;syscall.Syscall 6\nmain;os.write;syscall.Syscall 5\n"+
		"main;net.a;poll.wait;syscall.Syscall 2\nmain;net.b;poll.wait;syscall.Syscall 1\nmain;walk;visit;walk 5\n")
	s := kernel.NewSession(dir, testTable())
	table := func(cell string) []string {
		rec, err := RunForTest(t, s, cell)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := lastTable(t, rec)
		var out []string
		for _, r := range rows {
			last := r["places"]
			if last == nil {
				last = "·"
			}
			out = append(out, fmt.Sprint(r["name"], " ", r["change"], " ", r["base"], " ", r["self change"], " ", last))
		}
		return out
	}
	got := table("load base.folded as b\nload new.folded as n\nlevel b 9\nlevel n 9\ndiff b n n=3")
	// syscall.Syscall: self +2+3+1+0 = +6 over 4 places, base 8; walk,
	// which calls itself through visit: total 3 → 5 once over 2 places.
	if want := []string{"syscall.Syscall 6 8 6 4", "walk 2 3 2 2", "main 8 11 0 1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("diff b n (by=function) rows (name change base self-change places) =\n%q\nwant\n%q", got, want)
	}
	got = table("diff b n by=self n=6")
	want := []string{"… > os.write > syscall.Syscall 3 2 3 ·", "… > os.read > syscall.Syscall 2 4 2 ·", "… > visit > walk 2 3 2 ·",
		"… > net.a > poll.wait > syscall.Syscall 1 1 1 ·", "main 8 11 0 ·", "os.write 3 2 0 ·"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff b n by=self rows (name change base self-change) =\n%q\nwant\n%q", got, want)
	}
}

// TestDiffAsProfile: diff ... as D keeps the difference as a profile whose
// top is the difference of the sides' tops, function for function, and
// whose top JSON names the baseline for go tool pprof -diff_base.
func TestDiffAsProfile(t *testing.T) {
	s := kernel.NewSession("../../analysis/pprof/testdata", testTable())
	rec, err := RunForTest(t, s, "load heap-8.pb.gz as h8\nload heap-9.pb.gz as h9\n"+
		"top h8 n=0\ntop h9 n=0\ndiff h8 h9 as d n=3\ntop d n=0")
	if err != nil {
		t.Fatal(err)
	}
	var tops []map[string]any
	for _, b := range rec.Bundles() {
		if m, ok := b["application/json"].(map[string]any); ok && m["rows"] != nil {
			tops = append(tops, m)
		}
	}
	flat := func(top map[string]any) map[string][2]int64 {
		out := map[string][2]int64{}
		for _, r := range top["rows"].([]map[string]any) {
			out[r["name"].(string)] = [2]int64{r["flat"].(int64), r["cum"].(int64)}
		}
		return out
	}
	base, new, d := flat(tops[0]), flat(tops[1]), flat(tops[2])
	for name, x := range base {
		w := new[name]
		new[name] = [2]int64{w[0] - x[0], w[1] - x[1]}
	}
	for name, w := range new {
		if w != [2]int64{} && d[name] != w {
			t.Errorf("top d: %s flat/cum %v, want h9's − h8's %v", name, d[name], w)
		}
	}
	if tops[2]["diff_base"] != "heap-8.pb.gz" || tops[2]["source"] != "heap-9.pb.gz" || tops[2]["total"] != tops[0]["total"] {
		t.Errorf("top d: source %v, diff_base %v, total %v; want heap-9.pb.gz, heap-8.pb.gz and h8's total %v",
			tops[2]["source"], tops[2]["diff_base"], tops[2]["total"], tops[0]["total"])
	}
	if l := s.Get("d"); l == nil || !l.Profile.IsDiff() || l.Value != analysis.DiffChange || s.Current() != l {
		t.Errorf("diff ... as d: the session's d is %+v, want the current profile, a difference read in its change", l)
	}
	// Exported as pprof and read back, the difference keeps its baseline's
	// labels: the same top (which go tool pprof reads too, as a difference).
	out := filepath.Join(t.TempDir(), "d.pb.gz")
	rec, err = RunForTest(t, s, "export d "+out+"\nload "+out+" as e\ntop e n=0")
	if err != nil {
		t.Fatal(err)
	}
	if e := rec.Bundles()[len(rec.Bundles())-1]["application/json"].(map[string]any); !reflect.DeepEqual(e["rows"], tops[2]["rows"]) || e["total"] != tops[2]["total"] {
		t.Errorf("top of the exported difference: %v, total %v; want top d's", e["rows"], e["total"])
	}
}

// TestDiffPhases: diff NAME phase=A phase=B compares the samples of the
// intervals the last phases run gave to A and to B, found here by brute
// force over every sample and interval.
func TestDiffPhases(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load demo:phasedemo as run\nphases"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("run")
	st := phasesKey.Get(l)
	p := l.Profile
	want := map[int]int64{}
	for i := range p.Samples {
		for k, iv := range st.Vectors.Intervals {
			if p.Samples[i].Time >= iv.Start && p.Samples[i].Time < iv.End {
				want[int(st.Result.Of[k])] += p.Value(&p.Samples[i], l.Value)
			}
		}
	}
	rec, err := RunForTest(t, s, "diff phase=1 phase=3 by=tree n=1")
	if err != nil {
		t.Fatal(err)
	}
	rows, note := lastTable(t, rec)
	vt := p.ValueTypes[l.Value]
	if w := fmt.Sprintf("compacted nodes; BASE %s → NEW %s",
		analysis.FormatValue(want[1], vt.Unit), analysis.FormatValue(want[3], vt.Unit)); !strings.Contains(note, w) || !strings.HasPrefix(note[strings.LastIndex(note, "\nrun")+1:], "run phase 1 → phase 3: ") {
		t.Errorf("diff phase=1 phase=3 says\n%s\nwant %q", note, w)
	}
	row := rows[0]
	if row["base"] != want[1] || row["new"] != want[3] {
		t.Errorf("diff phase=1 phase=3: root row base %v, new %v; want %d, %d", row["base"], row["new"], want[1], want[3])
	}
}

// TestDiffErrors: what diff refuses, with what it says.
func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "a.folded", "main;a 3\n")
	s := kernel.NewSession(dir, testTable())
	if _, err := RunForTest(t, s, "load a.folded as a\nload "+v8Weighted(t)+" as v value=wall\nload demo:phasedemo as run\nphases"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ code, want string }{
		{"diff a a", "a compared with itself is nothing"},
		{"diff a", "missing NEW"},
		{"diff run phase=1", "phase= is given 1 times: give two"},
		{"diff run phase=1 phase=99", "phase=99: run has no such phase"},
		{"diff run phase=1 phase=NaN", "phase=NaN is not a finite number"},
		{"diff a v", "the baseline's samples is in count, the new profile's wall in nanoseconds: choose value types of one unit, or normalize"},
		{"diff a run n=-1", "n=-1: write a number of rows"},
	} {
		_, err := RunForTest(t, s, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.code, err, tc.want)
		}
	}
	if _, err := RunForTest(t, s, "diff a v normalize=true"); err != nil {
		t.Errorf("diff a v normalize=true: %v", err)
	}
}

// TestDiffFilterAndValue: the call's focus, ignore and hide filter both
// sides, as standing filters on both do; value= reads both in that value
// type, as profiles loaded with it.
func TestDiffFilterAndValue(t *testing.T) {
	path := v8Weighted(t)
	rows := func(code string) string {
		rec, err := RunForTest(t, nil, code)
		if err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		rows, _ := lastTable(t, rec)
		data, _ := json.Marshal(rows)
		return string(data)
	}
	load := "load " + path + " as a\nload " + path + " as b\n"
	// A profile against itself changes nothing: by=tree lists the nodes.
	const f = "focus=main ignore=hash hide=^work$"
	own, standing, whole := rows(load+"diff a b normalize=true by=tree "+f), rows(load+"filter a "+f+"\nfilter b "+f+"\ndiff a b normalize=true by=tree"),
		rows(load+"diff a b normalize=true by=tree")
	if own != standing || own == whole {
		t.Errorf("diff %s: same as standing filters %v, same as no filter %v; want true, false", f, own == standing, own == whole)
	}
	loadWall := "load " + path + " as a value=wall\nload " + path + " as b value=wall\n"
	if rows(load+"diff a b value=wall normalize=true by=tree") != rows(loadWall+"diff a b normalize=true by=tree") {
		t.Error("diff a b value=wall differs from the profiles loaded with value=wall")
	}
}

// TestDiffSharedLevels: the difference is read under NEW's levels; a call
// path only BASE has takes its parent's level, not BASE's unset level 1;
// with no levels set on NEW, BASE's are used; with none set on either,
// full names, as top, tree and flame read each side.
func TestDiffSharedLevels(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "b.folded", "lib1.A.f;lib2.B.g 1\nlib1.A.f;lib2.C.h 1\n")
	writeTestFile(t, dir, "n.folded", "lib1.A.f;lib2.B.g 3\n")
	names := func(code string) string {
		rec, err := RunForTest(t, kernel.NewSession(dir, testTable()), "load b.folded as b\nload n.folded as n\n"+code)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := lastTable(t, rec)
		var out []string
		for _, r := range rows {
			out = append(out, r["name"].(string))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct{ code, want string }{
		{"level n 9\ndiff b n by=tree", "lib1.A.f   lib2.B.g   lib2.C.h"},
		{"level b 9\ndiff b n by=tree", "lib1.A.f   lib2.B.g   lib2.C.h"},
		{"level b 9\nlevel n 1\ndiff b n by=tree", "lib1   lib2"},
		{"diff b n by=tree", "lib1.A.f   lib2.B.g   lib2.C.h"},
	} {
		if got := names(tc.code); got != tc.want {
			t.Errorf("%q: rows %q, want %q", tc.code, got, tc.want)
		}
	}
}
