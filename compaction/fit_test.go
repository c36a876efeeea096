package compaction

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
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
