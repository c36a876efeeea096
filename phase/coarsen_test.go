package phase

import (
	"fmt"
	"testing"
)

func TestCoarsen(t *testing.T) {
	// Ten 1-ns intervals, two samples each, in phases 1 1 1 2 2 0 0 0 2 1,
	// merged into 4 bins of intervals 0-1, 2-4, 5-6 and 7-9 (n·b/bins).
	v := vectors([]string{"x"}, make([][]float64, 10))
	for i := range v.Samples {
		v.Samples[i] = 2
	}
	r := &Result{Of: []int32{1, 1, 1, 2, 2, 0, 0, 0, 2, 1}}
	cv, cr := Coarsen(v, r, 4)
	got := fmt.Sprint(cv.Intervals, cv.Samples, cr.Of)
	// Bin 1 (1 2 2): phase 2 by count; bin 3 (0 2 1): a three-way tie, the
	// lowest id wins.
	if want := "[{0 2} {2 5} {5 7} {7 10}] [4 6 4 6] [1 2 0 0]"; got != want {
		t.Errorf("Coarsen(10 intervals, 4 bins) = %s, want %s", got, want)
	}
	if fmt.Sprint(r.Of) != "[1 1 1 2 2 0 0 0 2 1]" {
		t.Errorf("Coarsen changed the run's phases: %v", r.Of)
	}
	for _, bins := range []int{10, 11, 0} {
		if cv, cr := Coarsen(v, r, bins); cv != v || cr != r {
			t.Errorf("Coarsen(10 intervals, %d bins) made a copy, want the run as it is", bins)
		}
	}
	v.Series = true
	if cv, _ := Coarsen(v, r, 4); cv != v {
		t.Error("Coarsen(series) merged profiles, want the series as it is")
	}
}
