package analysis_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// The Firefox Profiler's transforms of a call path, transcribed: functions
// are names, paths root first.

// collapseIndirect keeps the path before f's first call and the path from
// its last call on.
func collapseIndirect(path []string, f string) []string {
	first, last := slices.Index(path, f), -1
	for i, g := range path {
		if g == f {
			last = i
		}
	}
	if first < 0 {
		return path
	}
	return append(slices.Clone(path[:first]), path[last:]...)
}

// collapseDirect drops f where the function before it is f.
func collapseDirect(path []string, f string) []string {
	var out []string
	for i, g := range path {
		if g != f || i == 0 || path[i-1] != f {
			out = append(out, g)
		}
	}
	return out
}

// collapseSet folds the indirect recursion of every function in fold: as
// long as one of them occurs twice, the one whose first call is outermost
// is collapsed.
func collapseSet(path []string, fold func(string) bool) []string {
	for {
		count := map[string]int{}
		for _, g := range path {
			count[g]++
		}
		outermost := ""
		for _, g := range path {
			if fold(g) && count[g] > 1 {
				outermost = g
				break
			}
		}
		if outermost == "" {
			return path
		}
		path = collapseIndirect(path, outermost)
	}
}

// oracle applies r to a path as the transcribed transforms do.
func oracle(path []string, r analysis.Recursion) []string {
	if r.All {
		path = collapseSet(path, func(string) bool { return true })
	} else {
		path = collapseSet(path, func(g string) bool { return slices.Contains(r.Indirect, g) })
	}
	for _, f := range uniq(path) {
		if r.AllDirect || slices.Contains(r.Direct, f) {
			path = collapseDirect(path, f)
		}
	}
	return path
}

func uniq(path []string) []string {
	out := slices.Clone(path)
	slices.Sort(out)
	return slices.Compact(out)
}

func names(p *analysis.Profile, st []int32) []string {
	out := []string{}
	for _, f := range st {
		out = append(out, p.Frames[f].Name)
	}
	return out
}

// TestCollapseRecursionTranscription: on random recursive profiles, every
// folded stack is what the transcribed Firefox transforms make of it, for
// all, all direct and random sets of functions; samples and totals stay.
func TestCollapseRecursionTranscription(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	funcs := []string{"main.main", "main.run", "pkg.A.f", "pkg.B.g", "lib.h", "lib.k", "runtime.x"}
	pick := func() []string {
		var out []string
		for _, f := range funcs {
			if r.Intn(3) == 0 {
				out = append(out, f)
			}
		}
		return out
	}
	checked := 0
	for i := 0; i < 300; i++ {
		p := testprof.Random(r, 1+r.Intn(40), nil)
		rec := analysis.Recursion{}.With(pick(), r.Intn(4) == 0, false).With(pick(), r.Intn(4) == 0, true)
		q := p.CollapseRecursion(rec)
		for id, st := range p.Stacks.All() {
			got, want := names(q, q.Stacks.At(id)), oracle(names(p, st), rec)
			if !slices.Equal(got, want) {
				t.Fatalf("case %d, %v: %v folds to %v, want %v", i, rec, names(p, st), got, want)
			}
			checked++
		}
		if len(q.Samples) != len(p.Samples) || p.Total(1) != q.Total(1) {
			t.Fatalf("case %d: folding changed the samples", i)
		}
	}
	if checked < 1000 {
		t.Errorf("checked %d stacks", checked)
	}
}

// TestCollapseRecursionExamples pins the transforms' documented cases.
func TestCollapseRecursionExamples(t *testing.T) {
	for _, tc := range []struct {
		path string
		rec  analysis.Recursion
		want string
	}{
		{"A B C B D", analysis.Recursion{Indirect: []string{"B"}}, "A B D"},
		{"A B B B C", analysis.Recursion{Direct: []string{"B"}}, "A B C"},
		{"A B C B D", analysis.Recursion{Direct: []string{"B"}}, "A B C B D"},
		{"A B A C B", analysis.Recursion{All: true}, "A C B"},
		{"A A B B A", analysis.Recursion{AllDirect: true}, "A B A"},
		{"A B C", analysis.Recursion{}, "A B C"},
	} {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
		var st []int32
		for _, n := range strings.Fields(tc.path) {
			st = append(st, b.Frame(analysis.Frame{Name: n}))
		}
		b.Add(b.Stack(st), []int64{1}, 0, false, "", nil)
		p := b.Finish().CollapseRecursion(tc.rec)
		if got := strings.Join(names(p, p.Stacks.At(0)), " "); got != tc.want {
			t.Errorf("%s under %v = %s, want %s", tc.path, tc.rec, got, tc.want)
		}
	}
	if s := (analysis.Recursion{}).With([]string{"b", "a"}, false, false).With(nil, true, true).With([]string{"c"}, false, true).String(); s != "all direct, a, b, direct c" {
		t.Errorf("Recursion.String = %q", s)
	}
}
