package avid

// ArcDistance says how far the arcs of a thinned recording are from the
// full recording's, both under the same mapping. Per arc, the thinned
// recording's calls are right (made on that arc in the recording) or
// wrong: C-1 replays the events it keeps on a stack that lost the others,
// so an entry it keeps may sit on a caller that did not call it (Replay),
// and its call then counts on the wrong arc, or on an arc the recording
// does not have.
//   - Recovered is the weighted share of the full recording's calls that
//     the thinned one shows right: Σ min(right, full) / Σ full;
//   - Spurious is the share of the thinned recording's calls that are
//     wrong, or beyond the full count of their arc: Σ (wrong + max(right −
//     full, 0)) / Σ thinned;
//   - Found of Of arcs of the full recording have at least one right call
//     in the thinned one.
//
// Recovered is 1 and Spurious 0 for the full recording itself.
type ArcDistance struct {
	Recovered, Spurious float64
	Found, Of           int
}

// CompareArcs measures thin against full (Entities of one mapping's
// entities); replays are the entries C-1 kept (Thinned.Replays), nil for
// a thinning without C-1.
func CompareArcs(full, thin *Entities, replays []Replay) ArcDistance {
	fullBy := map[[2]int32]int64{}
	var fullSum, thinSum, right, spurious int64
	for _, a := range full.Arcs {
		fullBy[[2]int32{a.From, a.To}] = a.Calls
		fullSum += a.Calls
	}
	wrong := wrongArcs(thin.Map, replays)
	d := ArcDistance{Of: len(full.Arcs)}
	for _, a := range thin.Arcs {
		k := [2]int32{a.From, a.To}
		f, w := fullBy[k], min(wrong[k], a.Calls)
		thinSum += a.Calls
		right += min(a.Calls-w, f)
		spurious += w + max(a.Calls-w-f, 0)
		if f > 0 && a.Calls > w {
			d.Found++
		}
	}
	d.Recovered, d.Spurious = ratio(right, fullSum), ratio(spurious, thinSum)
	if fullSum == 0 {
		d.Recovered = 1
	}
	return d
}

// wrongArcs counts, per arc between entities, the replayed entries that
// sit on it although their true caller is of another entity.
func wrongArcs(em *EntityMap, replays []Replay) map[[2]int32]int64 {
	wrong := map[[2]int32]int64{}
	for _, r := range replays {
		if r.Caller < 0 {
			continue
		}
		from, to := em.Frame[r.Caller], em.Frame[r.Frame]
		if from != to && (r.TrueCaller < 0 || em.Frame[r.TrueCaller] != from) {
			wrong[[2]int32{from, to}]++
		}
	}
	return wrong
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// CompareObjects is the share of the full recording's objects allocated
// that a thinned one shows: Σ over entities of min(thin, full) ÷ Σ full;
// 1 when the full recording allocates none, 0 when the thinned one has no
// memory events.
func CompareObjects(full, thin *Objects) float64 {
	if full == nil {
		return 1
	}
	var all, got int64
	for i, n := range full.Alloc {
		all += n
		if thin != nil {
			got += min(thin.Alloc[i], n)
		}
	}
	if all == 0 {
		return 1
	}
	return ratio(got, all)
}
