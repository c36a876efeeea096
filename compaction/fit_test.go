package compaction

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestFitProperties: on random trees and budgets, Fit never shows more
// than the budget's nodes; below the coarsest view's size it keeps level 1
// and folds (see TestFoldProperties); it holds R1 and R2, gives the same
// view on a second run and from a view at other levels, and is maximal: no
// node it shows has hidden weight whose expansion would still fit.
func TestFitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 300; i++ {
		tr := randomTwoValues(r, 40)
		value, n := r.IntN(2), 1+r.IntN(25)
		coarse := Compact(tr, NewState(tr, 1), value)
		v, err := Fit(t.Context(), coarse, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case v.After > n || len(v.Nodes) != v.After:
			t.Fatalf("case %d: nodes=%d gave %d nodes", i, n, v.After)
		case coarse.After > n && !slices.Equal(v.state.Levels(), coarse.state.Levels()):
			t.Fatalf("case %d: nodes=%d below the coarsest view's %d nodes, but Fit changed levels", i, n, coarse.After)
		case coarse.After > n && v.Whole() == v:
			t.Fatalf("case %d: nodes=%d below the coarsest view's %d nodes, but Fit did not fold", i, n, coarse.After)
		}
		if x := v.Check(); x != nil {
			t.Fatalf("case %d: the fitted view breaks %s: %s", i, x.Rule, x.Describe(v))
		}
		again, _ := Fit(t.Context(), Compact(tr, randomLevels(r, tr), value), n, nil)
		if !slices.Equal(again.state.Levels(), v.state.Levels()) || figure(again) != figure(v) {
			t.Fatalf("case %d: a second Fit gave another view:\n%s\n%s", i, figure(v), figure(again))
		}
		if refit, _ := Fit(t.Context(), v, n, nil); figure(refit) != figure(v) {
			t.Fatalf("case %d: Fit of the fitted view gave another view:\n%s\n%s", i, figure(v), figure(refit))
		}
		if v.Whole() != v {
			continue // maximal among levels: the coarsest
		}
		f := &fitter{kept: keptFrames(tr, nil)}
		for _, id := range v.Preorder() {
			if c := f.candidateOf(v, v.Nodes[id]); c.hidden != 0 {
				if _, next, err := Step(v, id, +1); err == nil && next.After <= n {
					t.Fatalf("case %d: %s could still be expanded within nodes=%d (%d → %d nodes)", i, v.Nodes[id].Name, n, v.After, next.After)
				}
			}
		}
	}
}

// TestFitHeaviestFirst: the budget goes to the heavier package; keep= puts
// a lighter one first.
func TestFitHeaviestFirst(t *testing.T) {
	tr, _ := build([]spec{{-1, "main.M.run", 0},
		{0, "big.A.f", 60}, {0, "big.B.g", 30}, {0, "small.C.h", 5}, {0, "small.D.k", 4}})
	coarse := Compact(tr, NewState(tr, 1), 0)
	for _, tc := range []struct {
		keep string
		want string
	}{
		{"", "main [99] → {big.A.f [60], big.B.g [30], small [9]}"},
		{"^small", "main [99] → {big [90], small.C.h [5], small.D.k [4]}"},
	} {
		var keep *regexp.Regexp
		if tc.keep != "" {
			keep = regexp.MustCompile(tc.keep)
		}
		v, err := Fit(t.Context(), coarse, 4, keep)
		if err != nil {
			t.Fatal(err)
		}
		if got := figure(v); got != tc.want {
			t.Errorf("Fit(nodes=4, keep=%q) = %s, want %s", tc.keep, got, tc.want)
		}
	}
	if _, err := Fit(t.Context(), coarse, 0, nil); err == nil {
		t.Error("Fit(nodes=0): no error")
	}
}

// TestFitOrder: Fit gives its budget to the expansion that shows the most
// hidden self weight per node it adds, also when that node is the first
// root; equal ratios go to the heavier node, then by name. Under main, p
// hides 10 over three classes, q 6 over two (or 5, or 10 over three);
// five nodes leave room for one of them.
func TestFitOrder(t *testing.T) {
	p := []spec{{-1, "main.M.run", 0}, {0, "p.A.f", 4}, {0, "p.B.f", 3}, {0, "p.C.f", 3}}
	for _, tc := range []struct {
		what  string
		specs []spec
		n     int
		want  string
	}{
		{"per node added", append(p[:4:4], spec{0, "q.A.f", 3}, spec{0, "q.B.f", 3}), 5,
			"main [16] → {p [10], q.A.f [3], q.B.f [3]}"},
		{"the first root", []spec{{-1, "p.A.f", 4}, {0, "p.B.f", 3}, {0, "q.A.f", 1}, {0, "q.B.f", 1}}, 3,
			"p.A.f [9] → {p.B.f [3], q [2]}"},
		{"equal ratios: the heavier", append(p[:4:4], spec{0, "q.A.f", 3}, spec{0, "q.B.f", 2}), 5,
			"main [15] → {q [5], p.A.f [4], p.B.f [3], p.C.f [3]}"},
		{"equal ratios and weights: by name", append(p[:4:4], spec{0, "q.A.f", 4}, spec{0, "q.B.f", 3}, spec{0, "q.C.f", 3}), 6,
			"main [20] → {q [10], p.A.f [4], p.B.f [3], p.C.f [3]}"},
	} {
		tr, _ := build(tc.specs)
		v, err := Fit(t.Context(), Compact(tr, NewState(tr, 1), 0), tc.n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := figure(v); got != tc.want {
			t.Errorf("%s: Fit(nodes=%d) = %s, want %s", tc.what, tc.n, got, tc.want)
		}
	}
}

// TestFitOrderByHandle: of two nodes of one name that tie in every other
// way, Fit expands the one whose handle comes first.
func TestFitOrderByHandle(t *testing.T) {
	tr, _ := build([]spec{{-1, "main.M.run", 0}, {0, "x.M.run", 0}, {1, "lib.A.f", 2}, {1, "lib.B.f", 2},
		{0, "y.M.run", 0}, {4, "lib.A.f", 2}, {4, "lib.B.f", 2}})
	coarse := Compact(tr, NewState(tr, 1), 0)
	underX, underY := must(coarse.Find("main > x > lib")).Nodes[0], must(coarse.Find("main > y > lib")).Nodes[0]
	want := "main [8] → {x [4] → {lib.A.f [2], lib.B.f [2]}, y [4] → lib [4]}"
	if coarse.Handle(underY) < coarse.Handle(underX) {
		want = "main [8] → {x [4] → lib [4], y [4] → {lib.A.f [2], lib.B.f [2]}}"
	}
	v, err := Fit(t.Context(), coarse, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := figure(v); got != want {
		t.Errorf("Fit(nodes=6) = %s, want %s (handles %s under x, %s under y)", got, want, coarse.Handle(underX), coarse.Handle(underY))
	}
}

// TestFitNamesJoinAChild: an expansion can add fewer nodes than the names
// it shows, when a finer name joins a child node of a shorter name; Fit
// takes it when it fits. b.X.g.p calls b.X.g.q and b, a function whose
// full name is one element: at b.X.g.p, b.X.g.q joins the child b, and the
// view stays at two nodes.
func TestFitNamesJoinAChild(t *testing.T) {
	tr, _ := build([]spec{{-1, "b.X.g.p", 3}, {0, "b", 1}, {0, "b.X.g.q", 3}})
	v, err := Fit(t.Context(), Compact(tr, NewState(tr, 1), 0), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := figure(v), "b.X.g.p [7] → b [4]"; got != want {
		t.Errorf("Fit(nodes=2) = %s, want %s", got, want)
	}
}

// TestFitWhatItSpendsOn: Fit spends its budget on nodes that hide self
// weight. A node whose self weight is all in a function it names in full
// (b, called by b.Y.g) is not expanded for the caller it hides; keep= does
// expand the callers it matches, which hold no self weight; weight removed
// in a difference of two profiles (negative) is hidden weight too. Room for
// one expansion in each case.
func TestFitWhatItSpendsOn(t *testing.T) {
	for _, tc := range []struct {
		what  string
		specs []spec
		n     int
		keep  string
		want  string
	}{
		{"weight shown by name", []spec{{-1, "b.Y.g", 0}, {0, "b", 5}, {-1, "q.A.f", 2}, {-1, "q.B.f", 2}}, 3, "",
			"b [5], q.A.f [2], q.B.f [2]"},
		{"callers kept", []spec{{-1, "main.M.run", 0}, {0, "small.C.h", 0}, {1, "big.A.f", 6}, {0, "small.D.k", 0}, {3, "big.B.g", 4}}, 5, "^small",
			"main [10] → {small.C.h [6] → big.A.f [6], small.D.k [4] → big.B.g [4]}"},
		{"negative weight", []spec{{-1, "main.M.run", 0}, {0, "p.A.f", -12}, {0, "p.B.f", -8}, {0, "q.A.f", 3}, {0, "q.B.f", 3}}, 4, "",
			"main [-14] → {q [6], p.B.f [-8], p.A.f [-12]}"},
	} {
		tr, _ := build(tc.specs)
		var keep *regexp.Regexp
		if tc.keep != "" {
			keep = regexp.MustCompile(tc.keep)
		}
		v, err := Fit(t.Context(), Compact(tr, NewState(tr, 1), 0), tc.n, keep)
		if err != nil {
			t.Fatal(err)
		}
		if got := figure(v); got != tc.want {
			t.Errorf("%s: Fit(nodes=%d, keep=%q) = %s, want %s", tc.what, tc.n, tc.keep, got, tc.want)
		}
	}
}

// TestNamed: the weight a view shows with its own name is the self of the
// samples whose leaf function it names in full: none when every name is
// cut to its package but for a function whose name is one element (util),
// all at full names.
func TestNamed(t *testing.T) {
	tr, _ := build([]spec{{-1, "main.M.run", 1}, {0, "lib.A.f", 4}, {1, "lib.A.g", 8}, {0, "util", 2}})
	for _, c := range []struct {
		level int
		want  int64
	}{{1, 2}, {2, 2}, {3, 15}} {
		if got := Compact(tr, NewState(tr, c.level), 0).Named(); got != c.want {
			t.Errorf("level %d: Named() = %d, want %d", c.level, got, c.want)
		}
	}
}

// TestExpandsFromLevelOneKeepTheRules: from the uniform level 1, where Fit
// starts, expanding one node after another never breaks R1 or R2 (a node
// splits into nodes one element finer, whose children never start with
// their names); a step is refused only when the node shows full names
// already, which no later expansion changes. Fit relies on it: it never
// tries a refused node again.
func TestExpandsFromLevelOneKeepTheRules(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	refused := 0
	for i := range 3000 {
		var tr *analysis.Tree
		if i%2 == 0 {
			tr = randomTwoValues(r, 30)
		} else {
			tr, _ = build(randomSpecs(r, 30, 0))
		}
		v := Compact(tr, NewState(tr, 1), 0)
		for range 12 * min(v.After, 1) {
			target := int32(r.IntN(v.After))
			_, next, err := Step(v, target, +1)
			if err != nil {
				if !strings.HasSuffix(err.Error(), "already at full names; nothing to expand") {
					t.Fatalf("case %d: expanding %s was refused: %v\nview: %s", i, v.Nodes[target].Name, err, figure(v))
				}
				refused++
				continue
			}
			v = next
		}
	}
	if refused < 1000 {
		t.Errorf("only %d expansions refused at full names", refused)
	}
}
