package blueprint_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// randomOps returns a random recording's operations: "+name" enters,
// "-" leaves, over names, at most depth deep, every frame left at the end.
func randomOps(r *rand.Rand, names []string, n, depth int) string {
	var ops []string
	open := 0
	for range n {
		if open > 0 && (open >= depth || r.Intn(3) == 0) {
			ops, open = append(ops, "-"), open-1
			continue
		}
		ops, open = append(ops, "+"+names[r.Intn(len(names))]), open+1
	}
	for ; open > 0; open-- {
		ops = append(ops, "-")
	}
	return strings.Join(ops, " ")
}

// stacksOf returns, per sample of p, its stack's frame names and value.
func stacksOf(p *analysis.Profile) ([][]string, []int64) {
	var stacks [][]string
	var values []int64
	for i := range p.Samples {
		var names []string
		for _, f := range p.Stacks.At(p.Samples[i].Stack) {
			names = append(names, p.Frames[f].Name)
		}
		stacks, values = append(stacks, names), append(values, p.Value(&p.Samples[i], 0))
	}
	return stacks, values
}

// TestFunctionBoxes: by function at full names, a box is as wide as its
// function's entries in the recording and as tall as the value of the
// samples with it on the stack, counted once per stack; the two oracles
// count the recording's operations and samples directly, on random
// recordings with recursion.
func TestFunctionBoxes(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	names := []string{"main", "fib", "walk", "visit", "leaf"}
	for round := range 200 {
		ops := randomOps(r, names, 2+r.Intn(80), 1+r.Intn(7))
		p := analysistest.Build(analysistest.Recording{Thread: "t", Ops: ops})
		tree := analysis.NewTree(p)
		c, err := blueprint.CallCounts(tree, p, 0)
		if err != nil {
			t.Fatal(err)
		}
		v := compaction.Compact(tree, compaction.NewState(tree, 99), 0)
		b := blueprint.Of(v, c, nil, nil, blueprint.ByFunction)
		stacks, values := stacksOf(p)
		for _, bx := range b.Boxes {
			var calls int64
			for _, op := range strings.Fields(ops) {
				calls += int64(b2i(op == "+"+bx.Name))
			}
			var height int64
			for i, st := range stacks {
				if slices.Contains(st, bx.Name) {
					height += values[i]
				}
			}
			if bx.Calls != calls || bx.Total != height {
				t.Fatalf("round %d %q: box %s is %d calls wide, %d tall; want %d, %d", round, ops, bx.Name, bx.Calls, bx.Total, calls, height)
			}
		}
		if len(b.Boxes) != len(uniqueFrames(stacks)) {
			t.Fatalf("round %d: %d boxes, want one per function (%d)", round, len(b.Boxes), len(uniqueFrames(stacks)))
		}
	}
}

func b2i(ok bool) int {
	if ok {
		return 1
	}
	return 0
}

func uniqueFrames(stacks [][]string) map[string]bool {
	out := map[string]bool{}
	for _, st := range stacks {
		for _, f := range st {
			out[f] = true
		}
	}
	return out
}

// TestFibIsOneBox: a recursive fib that ran 15 times (fib(5)) is one box
// 15 calls wide by function, its time counted once; by context, its one
// box is one call wide.
func TestFibIsOneBox(t *testing.T) {
	var fib func(n int) string
	fib = func(n int) string {
		if n < 2 {
			return "+fib -"
		}
		return "+fib " + fib(n-1) + " " + fib(n-2) + " -"
	}
	p := analysistest.Build(analysistest.Recording{Thread: "t", Ops: "+main " + fib(5) + " -"})
	tree := analysis.NewTree(p)
	c, _ := blueprint.CallCounts(tree, p, 0)
	v := compaction.Compact(tree, compaction.NewState(tree, 99), 0)
	for by, want := range map[blueprint.By]string{blueprint.ByFunction: "main 31 ×1; fib 29 ×15", blueprint.ByContext: "main 31 ×1; fib 29 ×1"} {
		b := blueprint.Of(v, c, nil, nil, by)
		var got []string
		for _, bx := range b.Boxes {
			got = append(got, fmt.Sprintf("%s %d ×%d", bx.Name, bx.Total, bx.Calls))
		}
		if strings.Join(got, "; ") != want || len(b.Cycles) != 1 || b.Cycles[0].Calls != 14 || b.Cycles[0].Depth != 1 {
			t.Errorf("by %s: %s, cycles %+v; want %s and one cycle of 14 calls back, depth 1", by, strings.Join(got, "; "), b.Cycles, want)
		}
	}
}

// TestCyclesAreRecursion: every cycle is a function at its full name
// (never a placeholder) found twice on one stack, in a box of that stack,
// and every such function is in a cycle; checked against a direct search
// of the stacks, at every level, by function and by context, on random
// trees of names that compaction merges (closures under their function,
// one namespace's functions, placeholders).
func TestCyclesAreRecursion(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	names := []string{"main.record", "main.record.func1", "runtime/trace.WithRegion", "std::sort", "std::swap", "[unknown]", "0x1ab70", "fib"}
	for round := range 300 {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
		var stacks [][]string
		for range 1 + r.Intn(12) {
			var st []int32
			var ns []string
			for range 1 + r.Intn(6) {
				n := names[r.Intn(len(names))]
				st, ns = append(st, b.Frame(analysis.Frame{Name: n})), append(ns, n)
			}
			b.Add(b.Stack(st), []int64{1 + int64(r.Intn(5))}, 0, false, "", nil)
			stacks = append(stacks, ns)
		}
		tree := analysis.NewTree(b.Finish())
		want := map[string]bool{}
		for _, st := range stacks {
			for i, n := range st {
				if !analysis.IsPlaceholder(n) && slices.Contains(st[:i], n) {
					want[n] = true
				}
			}
		}
		for _, g := range []int{1, 2, 99} {
			v := compaction.Compact(tree, compaction.NewState(tree, g), 0)
			for _, by := range []blueprint.By{blueprint.ByFunction, blueprint.ByContext} {
				bp := blueprint.Of(v, analysis.Counts{}, nil, nil, by)
				got := map[string]bool{}
				for _, c := range bp.Cycles {
					got[c.Function] = true
					if !want[c.Function] {
						t.Fatalf("round %d level %d by %s: cycle of %s, which no stack has twice: %q", round, g, by, c.Function, stacks)
					}
				}
				for _, p := range bp.Patterns(blueprint.PatternOptions{Tolerance: 0.1, Ratio: 10}) {
					if p.Letter == "F" && !want[p.Evidence["function"].(string)] {
						t.Fatalf("round %d level %d by %s: F at %s", round, g, by, bp.Boxes[p.Box].Name)
					}
				}
				if len(got) != len(want) {
					t.Fatalf("round %d level %d by %s: cycles of %v, want %v", round, g, by, got, want)
				}
			}
		}
	}
}

// TestStartupIsNoBox: the start-up chain above the program's entry has no
// box: the boxes start at main.main and at the goroutine the runtime
// started, both marked as entered from it, and the chain is named.
func TestStartupIsNoBox(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	for _, s := range []string{"runtime.goexit;runtime.main;main.main;main.f", "runtime.goexit;runtime.main;main.main", "runtime.goexit;runtime.gcBgMarkWorker"} {
		var st []int32
		for _, n := range strings.Split(s, ";") {
			st = append(st, b.Frame(analysis.Frame{Name: n}))
		}
		b.Add(b.Stack(st), []int64{2}, 0, false, "", nil)
	}
	tree := analysis.NewTree(b.Finish())
	v := compaction.Compact(tree, compaction.NewState(tree, 99), 0)
	for _, by := range []blueprint.By{blueprint.ByFunction, blueprint.ByContext} {
		bp := blueprint.Of(v, analysis.Counts{}, nil, nil, by)
		var got []string
		for _, r := range bp.Roots {
			got = append(got, fmt.Sprintf("%s %d %v", bp.Boxes[r].Name, bp.Boxes[r].Total, bp.Boxes[r].Startup))
		}
		if want := "main.main 4 true; runtime.gcBgMarkWorker 2 true"; strings.Join(got, "; ") != want || len(bp.Boxes) != 3 ||
			strings.Join(bp.Startup, " ") != "runtime.goexit runtime.main" || bp.StartupTotal != 6 || bp.Counts != "" || bp.Timed {
			t.Errorf("by %s: roots %q of %d boxes, start-up %q (%d), counts %q, timed %v; want %q of 3, runtime.goexit runtime.main (6), no counts, untimed",
				by, got, len(bp.Boxes), bp.Startup, bp.StartupTotal, bp.Counts, bp.Timed, want)
		}
	}
}

// TestFirstCalls: with first calls, callees and roots go in the order they
// were first called, and each box and edge knows its first call.
func TestFirstCalls(t *testing.T) {
	p := analysistest.Build(analysistest.Recording{Thread: "t", Ops: "+main +z - +a +z - - -"})
	tree := analysis.NewTree(p)
	c, _ := blueprint.CallCounts(tree, p, 0)
	first, _ := analysis.FirstEntries(tree)
	v := compaction.Compact(tree, compaction.NewState(tree, 99), 0)
	b := blueprint.Of(v, c, first, nil, blueprint.ByFunction)
	var got []string
	for _, k := range b.Boxes[b.Roots[0]].Kids {
		got = append(got, fmt.Sprintf("%s@%d", b.Boxes[k].Name, b.Boxes[k].First))
	}
	var edges []string
	for _, e := range b.Edges {
		edges = append(edges, fmt.Sprintf("%s>%s×%d@%d", b.Boxes[e.From].Name, b.Boxes[e.To].Name, e.Calls, e.First))
	}
	if !b.Timed || strings.Join(got, " ") != "z@1 a@3" || strings.Join(edges, " ") != "main>z×1@1 main>a×1@3 a>z×1@4" {
		t.Errorf("timed %v, callees %q, edges %q; want timed, z@1 a@3, main>z×1@1 main>a×1@3 a>z×1@4", b.Timed, got, edges)
	}
}
