package phase

import "math"

// settle takes out of a detection what sampled data makes of noise, unless
// the parameters are strict. Two kinds of run go to a neighbour:
//
//   - a blip: one interval of phase B between two runs of the same phase
//     A (the empty phase aside) joins A. One interval is below what the
//     window can tell: ω intervals vote on every W_i.
//   - a transition: a phase of fewer than ω intervals in all (other than
//     a saved one or the empty phase), whose window never lay inside it,
//     joins, run by run, the neighbouring run whose phase vector its own
//     counts match best (the earlier one on a tie); a run with no
//     neighbour to join stays.
//
// Then every phase's sums and interval counts are those of the intervals
// it holds, phases left with none are dropped (but saved ones), and the
// phases this run made are renumbered by first appearance from first, so
// ids, hues and colours are as if the detector had never made the others.
// It counts in r.Settled the intervals it gave another phase. Time is
// linear in the intervals and their entries, plus mergeSame's.
func settle(v *Vectors, r *Result, first int, pace *pacer) error {
	if r.Params.Strict || len(r.Of) == 0 {
		return nil
	}
	byID := map[int32]*Phase{}
	for _, ph := range r.Phases {
		byID[int32(ph.ID)] = ph
	}
	before := append([]int32(nil), r.Of...)
	mergeBlips(r.Of)
	mergeTransitions(v, r, byID)
	resum(v, r)
	if err := mergeSame(r, byID, pace); err != nil {
		return err
	}
	resum(v, r)
	recut(v, r, byID)
	resum(v, r)
	mergeBlips(r.Of) // the cuts can leave runs shorter than the window
	mergeTransitions(v, r, byID)
	resum(v, r)
	for i, id := range r.Of {
		if id != before[i] {
			r.Settled++
		}
	}
	renumber(r, first)
	return nil
}

// run is a maximal stretch [lo, hi) of intervals of one phase.
type run struct{ lo, hi int }

// runs returns the maximal runs of of.
func runs(of []int32) []run {
	var out []run
	for lo := 0; lo < len(of); {
		hi := lo + 1
		for hi < len(of) && of[hi] == of[lo] {
			hi++
		}
		out = append(out, run{lo, hi})
		lo = hi
	}
	return out
}

// mergeBlips gives a run of one interval of a non-empty phase between two
// runs of one other non-empty phase that phase.
func mergeBlips(of []int32) {
	for i := 1; i+1 < len(of); i++ {
		if a := of[i-1]; a != Empty && of[i] != Empty && of[i] != a && of[i+1] == a {
			of[i] = a
		}
	}
}

// mergeTransitions gives the intervals of the phases of fewer than ω
// intervals to their neighbours: each stretch of them between two runs
// of other phases is cut in two where the intervals' own counts match the
// phase before (on the left of the cut) and the phase after (on the
// right) best, summing their cosines; the earliest cut on a tie. An
// empty or missing neighbour takes nothing; a stretch with no neighbour
// to take it stays.
func mergeTransitions(v *Vectors, r *Result, byID map[int32]*Phase) {
	count := map[int32]int{}
	for _, id := range r.Of {
		count[id]++
	}
	short := func(id int32) bool {
		ph := byID[id]
		return id != Empty && !ph.Saved && count[id] < r.Params.Window
	}
	for lo := 0; lo < len(r.Of); {
		if !short(r.Of[lo]) {
			lo++
			continue
		}
		hi := lo
		for hi < len(r.Of) && short(r.Of[hi]) {
			hi++
		}
		left, right := neighbour(r.Of, lo-1), neighbour(r.Of, hi)
		if left < 0 && right < 0 {
			lo = hi
			continue
		}
		cut := cutAt(v, lo, hi, byID[left], byID[right])
		for i := lo; i < hi; i++ {
			r.Of[i] = right
			if i < cut {
				r.Of[i] = left
			}
		}
		lo = hi
	}
}

// neighbour returns the phase of interval i when it can take a stretch of
// transitions: -1 when i is out of range or empty.
func neighbour(of []int32, i int) int32 {
	if i < 0 || i >= len(of) || of[i] == Empty {
		return -1
	}
	return of[i]
}

// cutAt returns where intervals lo to hi-1 go from phase a to phase b,
// one of which may be nil (none): lo when a is nil, hi when b is.
func cutAt(v *Vectors, lo, hi int, a, b *Phase) int {
	switch {
	case a == nil:
		return lo
	case b == nil:
		return hi
	}
	// gain[k]: the score of cutting before interval lo+k, less that of
	// cutting at lo (all to b).
	best, bestGain, gain := lo, 0.0, 0.0
	for i := lo; i < hi; i++ {
		row := v.Dense(i)
		gain += cosineOf(a.Sum, row) - cosineOf(b.Sum, row)
		if gain > bestGain+tieTolerance {
			best, bestGain = i+1, gain
		}
	}
	return best
}

// cosineOf returns a·b/(|a||b|), 0 when either is zero.
func cosineOf(a, b []float64) float64 {
	var ab, aa, bb float64
	for j := range a {
		ab += a[j] * b[j]
		aa += a[j] * a[j]
		bb += b[j] * b[j]
	}
	if ab == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// mergeSame merges each phase this run made into the first earlier phase
// whose vector matches its own above δ (lifted for noise, as the detector
// does): the detector tests windows, which are noisy, so a phase can come
// back under a new id when its first windows matched nothing; once it has
// its intervals, its vector says which phase it is. Time is the phases
// squared times the names, paced.
func mergeSame(r *Result, byID map[int32]*Phase, pace *pacer) error {
	into := map[int32]int32{}
	var kept []*Phase
	for _, b := range r.Phases {
		if b.ID == Empty {
			continue
		}
		if !b.Saved {
			for _, a := range kept {
				if err := pace.step(len(a.Sum)); err != nil {
					return err
				}
				lift := noiseLift(r.Params.Spread, a.samples) * noiseLift(r.Params.Spread, b.samples)
				if cosineOf(a.ref, b.Sum)*lift > r.Params.Delta {
					into[int32(b.ID)] = int32(a.ID)
					break
				}
			}
			if _, ok := into[int32(b.ID)]; ok {
				continue
			}
		}
		kept = append(kept, b)
	}
	for i, id := range r.Of {
		if to, ok := into[id]; ok {
			r.Of[i] = to
		}
	}
	return nil
}

// recut moves each switch between two non-empty phases to where the
// intervals' own counts say it is: the window makes the detector late by
// up to ω-1 intervals (the paper notes it: "the differences actually
// occurred in the previous interval"). Within ω-1 intervals either side,
// keeping at least one interval of each run, the cut goes where the
// intervals before it match the phase before, and those after the phase
// after, best (summed cosines); on a tie, the detector's own, else the
// nearest before it, else the nearest after it.
func recut(v *Vectors, r *Result, byID map[int32]*Phase) {
	rs := runs(r.Of)
	reach := r.Params.Window - 1
	for k := 1; k < len(rs); k++ {
		a, b := r.Of[rs[k-1].lo], r.Of[rs[k].lo]
		if a == Empty || b == Empty || reach == 0 {
			continue
		}
		at := rs[k].lo
		lo, hi := max(at-reach, rs[k-1].lo+1), min(at+reach, rs[k].hi-1)
		cut, best, score := at, 0.0, 0.0
		for c := at - 1; c >= lo; c-- { // interval c to b instead of a
			row := v.Dense(c)
			if score += cosineOf(byID[b].Sum, row) - cosineOf(byID[a].Sum, row); score > best+tieTolerance {
				cut, best = c, score
			}
		}
		score = 0
		for c := at; c < hi; c++ { // interval c to a instead of b
			row := v.Dense(c)
			if score += cosineOf(byID[a].Sum, row) - cosineOf(byID[b].Sum, row); score > best+tieTolerance {
				cut, best = c+1, score
			}
		}
		for i := lo; i < hi; i++ {
			r.Of[i] = a
			if i >= cut {
				r.Of[i] = b
			}
		}
		rs[k-1].hi, rs[k].lo = cut, cut
	}
}

// resum sets every phase's Sum and Intervals from the intervals it holds
// now, and drops the phases that hold none, but saved ones.
func resum(v *Vectors, r *Result) {
	byID := map[int32]*Phase{}
	for _, ph := range r.Phases {
		byID[int32(ph.ID)] = ph
		clear(ph.Sum)
		ph.Intervals = 0
		if !ph.Saved {
			ph.samples = 0
		}
	}
	for i, id := range r.Of {
		ph := byID[id]
		ph.Intervals++
		ph.samples += float64(v.Samples[i])
		for e := v.Off[i]; e < v.Off[i+1]; e++ {
			ph.Sum[v.Idx[e]] += v.Val[e]
		}
	}
	kept := r.Phases[:0]
	for _, ph := range r.Phases {
		if ph.Intervals == 0 && !ph.Saved {
			continue
		}
		kept = append(kept, ph)
	}
	clear(r.Phases[len(kept):])
	r.Phases = kept
}

// renumber gives the phases this run made (not saved, not empty) the ids
// first, first+1, … in order of first appearance, with their hues and
// colours.
func renumber(r *Result, first int) {
	to := map[int32]int32{}
	next := int32(first)
	byID := map[int32]*Phase{}
	for _, ph := range r.Phases {
		byID[int32(ph.ID)] = ph
	}
	for _, id := range r.Of {
		if _, ok := to[id]; ok {
			continue
		}
		if ph := byID[id]; ph.Saved || id == Empty {
			to[id] = id
			continue
		}
		to[id] = next
		next++
	}
	for i, id := range r.Of {
		r.Of[i] = to[id]
	}
	for _, ph := range r.Phases {
		if id, ok := to[int32(ph.ID)]; ok && !ph.Saved && ph.ID != Empty {
			ph.ID = int(id)
			ph.Color = Color(Hue(ph.ID))
		}
	}
	sortPhases(r.Phases)
}
