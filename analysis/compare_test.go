package analysis_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestCompareIsTopDifference: on random profiles, the top of a difference
// is the difference of the tops, function for function (flat and cum are
// linear in the samples), and its base and new value types give back the
// sides' tops; the change's total is the baseline's.
func TestCompareIsTopDifference(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		base, new := testprof.Random(r, 1+r.Intn(40), nil), testprof.Random(r, 1+r.Intn(40), nil)
		v := r.Intn(2)
		d, err := analysis.Compare(analysis.Side{Profile: base, Value: v}, analysis.Side{Profile: new, Value: v}, false)
		if err != nil {
			t.Fatal(err)
		}
		tb, tn, td := topOf(base, v), topOf(new, v), topOf(d, analysis.DiffChange)
		want := map[string][2]int64{}
		for name, x := range tn {
			want[name] = x
		}
		for name, x := range tb {
			w := want[name]
			want[name] = [2]int64{w[0] - x[0], w[1] - x[1]}
		}
		for name, w := range want {
			if w != td[name] {
				t.Fatalf("case %d: %s flat/cum in the difference = %v, want new − base = %v", i, name, td[name], w)
			}
		}
		if !sameTop(topOf(d, analysis.DiffBase), tb) || !sameTop(topOf(d, analysis.DiffNew), tn) {
			t.Fatalf("case %d: the difference's base and new value types do not give the sides' tops", i)
		}
		if got, want := analysis.NewTop(analysis.NewTree(d), analysis.TopOptions{}).Total, absTotal(base, v); got != want && want > 0 {
			t.Fatalf("case %d: total of the difference = %d, want the baseline's %d", i, got, want)
		}
	}
}

func topOf(p *analysis.Profile, v int) map[string][2]int64 {
	out := map[string][2]int64{}
	for _, r := range analysis.NewTop(analysis.NewTree(p), analysis.TopOptions{Value: v}).Rows {
		out[r.Name] = [2]int64{r.Flat, r.Cum}
	}
	return out
}

// sameTop compares tops, a missing row counting as zero.
func sameTop(a, b map[string][2]int64) bool {
	for _, m := range []map[string][2]int64{a, b} {
		for name := range m {
			if a[name] != b[name] {
				return false
			}
		}
	}
	return true
}

func absTotal(p *analysis.Profile, v int) int64 {
	var s int64
	for i := range p.Samples {
		s += abs(p.Value(&p.Samples[i], v))
	}
	return s
}

// TestCompareValues pins the four value types of a difference, the frames
// matched by name across files and lines, the baseline's label, normalize
// and sample ranges.
func TestCompareValues(t *testing.T) {
	side := func(frames []analysis.Frame, values ...int64) *analysis.Profile {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
		var st []int32
		for _, f := range frames {
			st = append(st, b.Frame(f))
		}
		for _, x := range values {
			b.Add(b.Stack(st), []int64{x}, 0, false, "t1", nil)
		}
		return b.Finish()
	}
	base := side([]analysis.Frame{{Name: "main", File: "a.go", Line: 3}, {Name: "f", File: "a.go", Line: 9}}, 10, 30)
	new := side([]analysis.Frame{{Name: "main"}, {Name: "f"}}, 20)
	d, err := analysis.Compare(analysis.Side{Profile: base}, analysis.Side{Profile: new}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(d); got != "main;f [-10 10 0 10] base t1|main;f [-30 30 0 30] base t1|main;f [20 0 20 20] new t1" {
		t.Errorf("Compare = %s", got)
	}
	if len(d.Frames) != 2 || d.ValueTypes[3].Type != "cpu.both" || d.Format != "diff" {
		t.Errorf("Compare: %d frames, value types %v, format %s; want 2, cpu.both last, diff", len(d.Frames), d.ValueTypes, d.Format)
	}
	// normalize scales the baseline's 40 to the new total 20; ranges read the second sample alone.
	d, _ = analysis.Compare(analysis.Side{Profile: base}, analysis.Side{Profile: new}, true)
	if got := describe(d); !strings.HasPrefix(got, "main;f [-5 5 0 5] base t1|main;f [-15 15 0 15] base") {
		t.Errorf("Compare normalize = %s", got)
	}
	d, _ = analysis.Compare(analysis.Side{Profile: base, Ranges: [][2]int{{1, 5}}}, analysis.Side{Profile: new}, false)
	if got := describe(d); !strings.HasPrefix(got, "main;f [-30 30 0 30] base t1|main;f [20") {
		t.Errorf("Compare ranges = %s", got)
	}
}

func describe(p *analysis.Profile) string {
	var rows []string
	for i := range p.Samples {
		s := &p.Samples[i]
		var names []string
		for _, f := range p.Stacks.At(s.Stack) {
			names = append(names, p.Frames[f].Name)
		}
		side := "new"
		if p.Labels(s)[analysis.BaseLabel] != nil {
			side = "base"
		}
		rows = append(rows, fmt.Sprint(strings.Join(names, ";"), " ", p.Values(s), " ", side, " ", p.Thread(s)))
	}
	return strings.Join(rows, "|")
}

// TestCompareErrors: sides in different units need normalize, and a
// baseline without weight cannot be scaled.
func TestCompareErrors(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	p := testprof.Random(r, 20, nil)
	_, err := analysis.Compare(analysis.Side{Profile: p, Value: 0}, analysis.Side{Profile: p, Value: 1}, false)
	if err == nil || !strings.Contains(err.Error(), "samples is in count, the new profile's cpu in nanoseconds") {
		t.Errorf("Compare of count with nanoseconds: %v", err)
	}
	if _, err := analysis.Compare(analysis.Side{Profile: p, Value: 0}, analysis.Side{Profile: p, Value: 1}, true); err != nil {
		t.Errorf("Compare normalized across units: %v", err)
	}
	_, err = analysis.Compare(analysis.Side{Profile: p, Ranges: [][2]int{}}, analysis.Side{Profile: p}, true)
	if err == nil || !strings.Contains(err.Error(), "the baseline has no samples to scale") {
		t.Errorf("Compare normalized with an empty baseline: %v", err)
	}
	if _, err := analysis.Compare(analysis.Side{Profile: p, Value: 7}, analysis.Side{Profile: p}, false); err == nil {
		t.Error("Compare with value index 7: no error")
	}
}
