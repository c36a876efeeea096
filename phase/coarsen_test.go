package phase

import (
	"fmt"
	"math/rand/v2"
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

// TestCoarsenBins: for any run and any number of bins below its length,
// the bins partition the intervals in order, each counting its intervals'
// samples and taking the phase of most of them (the lowest id on a tie);
// the merged vectors are well formed, one per bin, with no counts.
func TestCoarsenBins(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 2 + r.IntN(60)
		v := vectors([]string{"x"}, make([][]float64, n))
		res := &Result{Of: make([]int32, n)}
		for i := range n {
			v.Samples[i] = int64(r.IntN(5))
			res.Of[i] = int32(r.IntN(4))
		}
		bins := 1 + r.IntN(n-1)
		cv, cr := Coarsen(v, res, bins)
		if cv.Len() != bins || len(cr.Of) != bins || cv.check() != nil || len(cv.Idx) != 0 {
			t.Fatalf("trial %d: Coarsen(%d intervals, %d bins) = %d intervals, %d phases, check %v", trial, n, bins, cv.Len(), len(cr.Of), cv.check())
		}
		next := int64(0)
		for b := range bins {
			iv := cv.Intervals[b]
			var samples int64
			count := map[int32]int{}
			for i := iv.Start; i < iv.End; i++ {
				samples += v.Samples[i]
				count[res.Of[i]]++
			}
			best := int32(-1)
			for id, c := range count {
				if best < 0 || c > count[best] || c == count[best] && id < best {
					best = id
				}
			}
			if iv.Start != next || iv.End <= iv.Start || cv.Samples[b] != samples || cr.Of[b] != best {
				t.Fatalf("trial %d: bin %d of %d = %v, %d samples, phase %d; want from %d, %d samples, phase %d (of %v)",
					trial, b, bins, iv, cv.Samples[b], cr.Of[b], next, samples, best, res.Of)
			}
			next = iv.End
		}
		if next != int64(n) {
			t.Fatalf("trial %d: bins end at %d, want %d", trial, next, n)
		}
	}
}
