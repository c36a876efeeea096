package callgrind

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// TestAnnotate records testdata/prog.c under valgrind's callgrind (with
// branch simulation, for five events) and checks the loaded call tree
// against callgrind_annotate --inclusive=yes --tree=both on the same file:
// the program's total per event; per function of prog.c, its inclusive
// cost (the total of its outermost nodes: recursive calls nest inside),
// how many times it was called, and how many times it called each callee.
// All are exact but for sq, whose nodes divide its figures by the average
// (unroll.go): their sums are exact to within a unit per node. It skips
// when gcc, valgrind or callgrind_annotate is missing (testtool.Need).
func TestAnnotate(t *testing.T) {
	dir := record(t)
	p, err := analysis.Load(context.Background(), filepath.Join(dir, "cg.out"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := annotate(t, dir)
	tree := analysis.NewTree(p)
	if len(p.ValueTypes) != len(a.events)+1 {
		t.Fatalf("value types %v, want the events %v and calls", p.ValueTypes, a.events)
	}
	for e := range a.events {
		var sum int64
		for _, r := range tree.Roots {
			sum += tree.Total[e][r]
		}
		if sum != a.totals[e] {
			t.Errorf("%s: roots add up to %d, want callgrind_annotate's program total %d", a.events[e], sum, a.totals[e])
		}
	}
	ours := facts(tree)
	for _, fn := range []string{"main", "work", "leaf", "fib", "ping", "pong", "alpha", "beta", "helper", "sq"} {
		want, got := a.funcs[fn], ours[fn]
		if want == nil || got == nil {
			t.Fatalf("%s: callgrind_annotate has %v, the tree %v", fn, want != nil, got != nil)
		}
		slack := int64(0)
		if fn == "sq" {
			slack = got.nodes
		}
		for e := range a.events {
			if d := got.incl[e] - want.incl[e]; d < -slack || d > slack {
				t.Errorf("%s: inclusive %s %d, want %d (±%d)", fn, a.events[e], got.incl[e], want.incl[e], slack)
			}
		}
		if d := got.called - a.called[fn]; d < -slack || d > slack {
			t.Errorf("%s: called %d times, want %d (±%d)", fn, got.called, a.called[fn], slack)
		}
		for callee, n := range want.calls {
			if got.calls[callee] != n {
				t.Errorf("%s calls %s %d times, want %d", fn, callee, got.calls[callee], n)
			}
		}
	}
}

// record compiles testdata/prog.c and runs it under callgrind into
// DIR/cg.out; it returns DIR.
func record(t *testing.T) string {
	return recordWith(t, "prog.c", "gcc", "-O0", "-g", "-fno-inline")
}

// recordWith compiles testdata/SRC with the compiler and flags given and
// runs it under callgrind (with branch simulation) into DIR/cg.out; it
// returns DIR.
func recordWith(t *testing.T, src, compiler string, flags ...string) string {
	for _, tool := range []string{compiler, "valgrind", "callgrind_annotate"} {
		testtool.Need(t, tool)
	}
	dir := t.TempDir()
	text, err := os.ReadFile(filepath.Join("testdata", src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, src), text, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, compiler, append(flags, "-o", "prog", src)...)
	run(t, dir, "valgrind", "--tool=callgrind", "--branch-sim=yes", "--callgrind-out-file=cg.out", "./prog")
	return dir
}

func run(t *testing.T, dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// annotated is what callgrind_annotate says of the functions of prog.c,
// by name; recursion contexts (fib'2) count as their function.
type annotated struct {
	events []string
	totals []int64
	funcs  map[string]*fnFacts // the outermost context of each function
	called map[string]int64    // calls into any context of the function
}

// fnFacts are a function's inclusive cost per event and its calls per
// callee name; nodes counts the tree nodes they come from.
type fnFacts struct {
	incl   []int64
	calls  map[string]int64
	called int64
	nodes  int64
}

var (
	annotateLine = regexp.MustCompile(`^(.*?)\s+([<*>])\s+(\S.*)$`)
	annotateCol  = regexp.MustCompile(`\.|[\d,]+(\s*\(\s*[\d.]+%\))?`)
	annotateName = regexp.MustCompile(`^([^:]*):(.*?)(?: \((\d+)x\))?(?: \[[^\]]*\])?$`)
)

// annotate runs callgrind_annotate on DIR/cg.out and reads its tree
// output: per block, callers ("<"), the function ("*", with its inclusive
// cost) and its callees (">", with their counts).
func annotate(t *testing.T, dir string) *annotated {
	out := run(t, dir, "callgrind_annotate", "--inclusive=yes", "--tree=both", "--threshold=100", "--auto=no", "cg.out")
	a := &annotated{funcs: map[string]*fnFacts{}, called: map[string]int64{}}
	var current *fnFacts // the "*" function of the block, if of prog.c
	for _, l := range strings.Split(out, "\n") {
		if f, ok := strings.CutPrefix(l, "Events shown:"); ok {
			a.events = strings.Fields(f)
		}
		if cols, ok := strings.CutSuffix(strings.TrimSpace(l), "PROGRAM TOTALS"); ok {
			a.totals = columns(cols)
		}
		m := annotateLine.FindStringSubmatch(l)
		if m == nil || len(columns(m[1])) != len(a.events) {
			continue
		}
		n := annotateName.FindStringSubmatch(m[3])
		if n == nil {
			continue
		}
		name := recursion.ReplaceAllString(n[2], "")
		count, _ := strconv.ParseInt(n[3], 10, 64)
		switch m[2] {
		case "*":
			current = nil
			if n[1] == "prog.c" && name == n[2] {
				current = &fnFacts{incl: columns(m[1]), calls: map[string]int64{}}
				a.funcs[name] = current
			}
		case ">":
			if current != nil {
				current.calls[name] += count
			}
			a.called[name] += count
		}
	}
	if a.totals == nil || len(a.events) == 0 {
		t.Fatalf("no events or totals in callgrind_annotate's output:\n%s", out)
	}
	return a
}

// columns reads the event columns of a line: "7,435 ( 5.29%)" or "." (0).
func columns(s string) []int64 {
	var out []int64
	for _, c := range annotateCol.FindAllString(s, -1) {
		digits, _, _ := strings.Cut(strings.ReplaceAll(c, ",", ""), " ")
		digits, _, _ = strings.Cut(digits, "(")
		v, _ := strconv.ParseInt(digits, 10, 64)
		out = append(out, v)
	}
	return out
}

// facts gathers the same figures from the tree, for the frames of prog.c:
// inclusive costs from each function's outermost nodes, calls from every
// node.
func facts(tree *analysis.Tree) map[string]*fnFacts {
	calls := tree.Profile.ValueIndex(Calls.Type)
	out := map[string]*fnFacts{}
	for n := int32(0); n < int32(tree.Len()); n++ {
		fr := tree.Profile.Frames[tree.Frame[n]]
		if filepath.Base(fr.File) != "prog.c" {
			continue
		}
		f := out[fr.Name]
		if f == nil {
			f = &fnFacts{incl: make([]int64, len(tree.Total)-1), calls: map[string]int64{}}
			out[fr.Name] = f
		}
		f.nodes++
		f.called += tree.Self[calls][n]
		if nested(tree, n) {
			continue
		}
		for e := range f.incl {
			f.incl[e] += tree.Total[e][n]
		}
		tree.Children(n, func(c int32) { f.calls[tree.Name(c)] += tree.Self[calls][c] })
	}
	return out
}

// nested reports whether an ancestor of n has n's frame name.
func nested(tree *analysis.Tree, n int32) bool {
	for a := tree.Parent[n]; a >= 0; a = tree.Parent[a] {
		if tree.Name(a) == tree.Name(n) {
			return true
		}
	}
	return false
}
