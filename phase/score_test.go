package phase

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/proflens/proflens/analysis"
)

func TestARI(t *testing.T) {
	// Values from scikit-learn's adjusted_rand_score documentation.
	tests := []struct {
		a, b []int32
		want float64
	}{
		{[]int32{0, 0, 1, 1}, []int32{0, 0, 1, 1}, 1},
		{[]int32{0, 0, 1, 1}, []int32{1, 1, 0, 0}, 1},
		{[]int32{0, 0, 1, 2}, []int32{0, 0, 1, 1}, 0.5714285714285715},
		{[]int32{0, 0, 1, 1}, []int32{0, 0, 1, 2}, 0.5714285714285715},
		{[]int32{0, 0, 0, 0}, []int32{0, 1, 2, 3}, 0},
		{[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, -0.5},
		// Both partitions trivial (no pair to tell them apart by chance):
		// 1 when they are the same partition.
		{[]int32{0, 0, 0}, []int32{4, 4, 4}, 1},
		{[]int32{0, 1, 2}, []int32{2, 0, 1}, 1},
	}
	for _, tc := range tests {
		if got := ARI(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ARI(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestBoundaryMatch(t *testing.T) {
	truth := []int32{1, 1, 1, 2, 2, 2, 2, 3, 3, 3}
	tests := []struct {
		pred      []int32
		m         int
		prec, rec float64
	}{
		{truth, 0, 1, 1},
		{[]int32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3}, 1, 1, 1},       // both late by one
		{[]int32{1, 1, 1, 1, 1, 2, 2, 2, 2, 3}, 1, 0, 0},       // late by two
		{[]int32{1, 1, 1, 2, 4, 2, 2, 3, 3, 3}, 0, 0.5, 1},     // two extra boundaries
		{[]int32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 3, 1, 0},       // none detected
		{[]int32{1, 1, 1, 2, 2, 2, 2, 2, 2, 2}, 0, 1, 0.5},     // one missed
		{[]int32{1, 1, 2, 3, 2, 2, 2, 3, 3, 3}, 1, 2.0 / 4, 1}, // one-to-one: 4 detected, 2 matched
	}
	for _, tc := range tests {
		p, r := BoundaryMatch(Boundaries(truth), Boundaries(tc.pred), tc.m)
		if p != tc.prec || r != tc.rec {
			t.Errorf("BoundaryMatch(%v, margin %d) = %.2f, %.2f; want %.2f, %.2f", tc.pred, tc.m, p, r, tc.prec, tc.rec)
		}
	}
	// Each true boundary in turn takes the nearest detected one left (the
	// earlier on a tie), within the margin.
	for _, tc := range []struct {
		truth, pred []int
		m           int
		prec, rec   float64
	}{
		{[]int{10, 12}, []int{11, 13}, 1, 1, 1},      // 10 takes 11, 12 takes 13
		{[]int{11, 13}, []int{10, 12}, 1, 1, 1},      // 11 takes 10 (a tie with 12), 13 takes 12
		{[]int{10, 11}, []int{11, 13}, 2, 1, 1},      // 10 takes 11 though 11 is on it; 11 takes 13
		{[]int{10, 14}, []int{12}, 2, 1, 0.5},        // 10 takes 12; none is left for 14
		{[]int{10, 14}, []int{13, 12}, 2, 1, 1},      // in any order
		{[]int{10}, []int{13, 7, 11}, 1, 1.0 / 3, 1}, // the nearest, not the first listed
		{[]int{10, 13}, []int{12, 8}, 2, 1, 1},       // 10 takes 8 (a tie with 12, listed first), 13 takes 12
		{nil, []int{5}, 1, 0, 1},                     // no true boundary: all detected are wrong, none missed
		{[]int{5}, nil, 1, 1, 0},
	} {
		if p, r := BoundaryMatch(tc.truth, tc.pred, tc.m); p != tc.prec || r != tc.rec {
			t.Errorf("BoundaryMatch(%v, %v, margin %d) = %.2f, %.2f; want %.2f, %.2f", tc.truth, tc.pred, tc.m, p, r, tc.prec, tc.rec)
		}
	}
}

func TestRecurrenceAndTruthIDs(t *testing.T) {
	truth := IDs([]string{"a", "a", "", "b", "b", "a", "a"})
	if got := truth; got[2] != 0 || got[0] != 1 || got[3] != 2 || got[5] != 1 {
		t.Fatalf("IDs = %v", got)
	}
	if r := Recurrence(truth, []int32{5, 5, 0, 6, 6, 5, 5}); r != 1 {
		t.Errorf("Recurrence(same id on return) = %v, want 1", r)
	}
	if r := Recurrence(truth, []int32{5, 5, 0, 6, 6, 7, 7}); r != 0 {
		t.Errorf("Recurrence(new id on return) = %v, want 0", r)
	}
	if r := Recurrence([]int32{1, 2, 1, 2, 1}, []int32{5, 6, 5, 6, 7}); r != 2.0/3 {
		t.Errorf("Recurrence(two of three returns) = %v, want 2/3", r)
	}
	if r := Recurrence([]int32{1, 1, 1, 2, 1, 1, 1}, []int32{5, 6, 6, 8, 6, 5, 5}); r != 0 {
		t.Errorf("Recurrence(most of the first segment 6, of the return 5) = %v, want 0", r)
	}
	if r := Recurrence([]int32{1, 2, 3}, []int32{1, 2, 3}); !math.IsNaN(r) {
		t.Errorf("Recurrence(no return) = %v, want NaN", r)
	}
}

func TestConsecutiveBaseline(t *testing.T) {
	a, b, z := []float64{5, 1, 0}, []float64{0, 1, 5}, []float64{0, 0, 0}
	v := vectors([]string{"x", "y", "z"}, [][]float64{a, a, z, b, b, a})
	if got, want := Consecutive(v, 1, 0.9), []int32{1, 1, 0, 2, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("Consecutive = %v, want %v (no memory: a's return is new)", got, want)
	}
	// A cosine equal to the threshold (0.6 between (3, 4) and (1, 0)) is
	// "at most" it: a new phase.
	v = vectors([]string{"x", "y"}, [][]float64{{3, 4}, {1, 0}, {1, 0}})
	if got, want := Consecutive(v, 1, 0.6), []int32{1, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("Consecutive(cosine = threshold) = %v, want %v", got, want)
	}
}

// TestScoreF1: F1 is the harmonic mean of boundary precision and recall,
// 0 when both are 0; worked by hand on runs whose boundaries are at
// intervals 10, 20, 30 (truth) and elsewhere (detected), margin 2.
func TestScoreF1(t *testing.T) {
	run := func(bounds ...int) []int32 {
		out := make([]int32, 40)
		for i := range out {
			for _, b := range bounds {
				if i >= b {
					out[i]++
				}
			}
		}
		return out
	}
	truth := run(10, 20, 30)
	for _, tc := range []struct {
		pred      []int32
		p, r, f1  float64
		situation string
	}{
		{run(11), 1, 1.0 / 3, 0.5, "one of three found"},
		{run(11, 19, 25, 35), 0.5, 2.0 / 3, 4.0 / 7, "two found, two spurious"},
		{run(15, 25), 0, 0, 0, "none within the margin"},
		{run(10, 20, 30), 1, 1, 1, "all"},
	} {
		s := Score(truth, tc.pred, 2)
		if !(math.Abs(s.Precision-tc.p) <= 1e-12 && math.Abs(s.Recall-tc.r) <= 1e-12 && math.Abs(s.F1-tc.f1) <= 1e-12) { // NaN fails
			t.Errorf("%s: P %g R %g F1 %g, want %g %g %g", tc.situation, s.Precision, s.Recall, s.F1, tc.p, tc.r, tc.f1)
		}
	}
}

// TestTruth: each interval takes its samples' most common label; an
// unlabelled gap between two intervals of one label takes it, a gap
// between two labels or at either end stays idle ("").
func TestTruth(t *testing.T) {
	b := analysis.NewBuilder("labels", analysis.ValueType{Type: "samples", Unit: "count"})
	st := b.Stack([]int32{b.Frame(analysis.Frame{Name: "f"})})
	labels := []string{"", "a", "", "a", "b", "", "a", "", ""}
	v := &Vectors{Names: []string{"f"}, Off: []int{0}}
	for i, l := range labels {
		var ls map[string][]string
		if l != "" {
			ls = map[string][]string{"phase": {l}}
		}
		b.Add(st, []int64{1}, int64(i), true, "", ls)
		v.Append(Interval{int64(i), int64(i + 1)}, 1, []float64{1})
	}
	got := fmt.Sprintf("%q", Truth(b.Finish(), v, "phase"))
	if want := `["" "a" "a" "a" "b" "" "a" "" ""]`; got != want {
		t.Errorf("Truth = %s, want %s", got, want)
	}
}
