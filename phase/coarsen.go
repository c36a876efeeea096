package phase

// Coarsen merges a timed run's intervals into at most bins intervals for
// drawing: bin b holds intervals n·b/bins to n·(b+1)/bins - 1, spans them,
// counts their samples, and gets the phase covering most of them (the
// lowest id on a tie), as Similarity.BinPhases does. The merged vectors
// keep no counts. A series, or a run of at most bins intervals, is
// returned as it is. Time is linear in the intervals.
func Coarsen(v *Vectors, r *Result, bins int) (*Vectors, *Result) {
	n := v.Len()
	if v.Series || n <= bins || bins < 1 {
		return v, r
	}
	cv := &Vectors{Names: v.Names, Off: make([]int, bins+1), Intervals: make([]Interval, bins), Samples: make([]int64, bins)}
	cr := *r
	cr.Of = make([]int32, bins)
	count := map[int32]int{}
	for b := range bins {
		lo, hi := int(int64(b)*int64(n)/int64(bins)), int(int64(b+1)*int64(n)/int64(bins))
		cv.Intervals[b] = Interval{v.Intervals[lo].Start, v.Intervals[hi-1].End}
		for _, s := range v.Samples[lo:hi] {
			cv.Samples[b] += s
		}
		cr.Of[b] = mostCommon(r.Of[lo:hi], count)
	}
	return cv, &cr
}

// mostCommon returns the id most frequent in of (the lowest on a tie),
// counting runs of one id at once; count is scratch space.
func mostCommon(of []int32, count map[int32]int) int32 {
	clear(count)
	best := of[0]
	for lo := 0; lo < len(of); {
		hi := lo + 1
		for hi < len(of) && of[hi] == of[lo] {
			hi++
		}
		id := of[lo]
		count[id] += hi - lo
		if count[id] > count[best] || (count[id] == count[best] && id < best) {
			best = id
		}
		lo = hi
	}
	return best
}
