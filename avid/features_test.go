package avid

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// Features judged on allocShop, one operation per time unit from 0, by
// hand: UI→Core at 3 and 15, Core→DB at 4 and 16, DB→JDK at 6, Core→JDK
// at 11, UI→(other) at 21; JDK allocates at 5, 10 and 17 and frees at 22;
// Core allocates at 0 and frees at 23; the run spans 0 to 25.
func TestJudgeAllocShop(t *testing.T) {
	p := analysistest.Build(allocShop)
	em := shopMap(t, analysis.NewTree(p))
	fs, err := ParseFeatures("shop.features", `
# by hand
A at call 2 UI->Core: Core->DB >= 1, allocated JDK >= 2
B from call 1 UI->Core to end: Core->DB >= 3, freed JDK = 1
C at call 3 UI->Core: UI->Core >= 1
D at 50%: DB->JDK >= 1, Core->JDK = 0
E at end: allocated Core >= 1, freed Core >= 1, UI->(other) >= 1
`)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Check(em); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range Judge(p, em, fs, RunSpan(p)) {
		got = append(got, v.String())
	}
	want := []string{
		"A evident: Core→DB 1, JDK allocated 2",
		"B partial: Core→DB 2 (want ≥ 3), JDK freed 1",
		"C not evident: no call 3 UI→Core",
		"D not evident: DB→JDK 1, Core→JDK 1 (want = 0)",
		"E evident: Core allocated 1, Core freed 1, UI→(other) 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verdicts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := RunSpan(p); s != (Span{0, 25}) {
		t.Errorf("RunSpan = %+v, want 0 to 25", s)
	}
}

func TestParseFeaturesErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"F-1 at end UI->Core >= 1", "f: line 1: expected `NAME at POINT: CONDITION, …` (a colon before the conditions)"},
		{"F-1 when end: UI->Core >= 1", `f: line 1: expected at or from after the name F-1, found "when"`},
		{"F-1 at 120%: UI->Core >= 1", "f: line 1: 120%: write a share of the run from 0% to 100%"},
		{"F-1 at call 0 UI->Core: UI->Core >= 1", "f: line 1: call 0 UI->Core: write call K FROM->TO, K a whole number from 1"},
		{"F-1 from start: UI->Core >= 1", "f: line 1: from POINT needs `to POINT` after it"},
		{"\nF-1 at end: UI->Core ~ 1", `f: line 2: "~" is not a comparison: write one of >= <= > < =`},
		{"F-1 at end: UI->Core >= many", `f: line 1: "many" is not a count: write a whole number`},
		{"F-1 at end: made JDK >= 1", `f: line 1: "made JDK >= 1" is not a condition`},
		{"# none", "f: no features"},
	} {
		if _, err := ParseFeatures("f", c.text); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseFeatures(%q) error = %v, want %q", c.text, err, c.want)
		}
	}
	fs, err := ParseFeatures("f", "F-1 at end: UI->Kore >= 1")
	if err != nil {
		t.Fatal(err)
	}
	em := shopMap(t, analysis.NewTree(analysistest.Build(shop)))
	if err := fs.Check(em); err == nil || !strings.Contains(err.Error(), "feature F-1 names the entity Kore, which the mapping has not") {
		t.Errorf("Check: %v, want the unknown entity named", err)
	}
}
