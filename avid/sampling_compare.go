package avid

// ArcDistance says how far the arcs of a thinned recording are from the
// full recording's, both under the same mapping:
//   - Recovered is the weighted share of the full recording's calls that
//     the thinned one shows: Σ min(thin, full) / Σ full over the arcs;
//   - Spurious is the share of the thinned recording's calls that the full
//     one does not have: Σ max(thin − full, 0) / Σ thin (C-1 loses the
//     callers of the events it keeps, and invents arcs);
//   - Found of Of arcs of the full recording have at least one call in the
//     thinned one.
//
// Recovered is 1 and Spurious 0 for the full recording itself.
type ArcDistance struct {
	Recovered, Spurious float64
	Found, Of           int
}

// CompareArcs measures thin against full (Entities of one mapping's
// entities).
func CompareArcs(full, thin *Entities) ArcDistance {
	fullBy := map[[2]int32]int64{}
	var fullSum, thinSum, common, extra int64
	for _, a := range full.Arcs {
		fullBy[[2]int32{a.From, a.To}] = a.Calls
		fullSum += a.Calls
	}
	d := ArcDistance{Of: len(full.Arcs)}
	for _, a := range thin.Arcs {
		f := fullBy[[2]int32{a.From, a.To}]
		thinSum += a.Calls
		common += min(a.Calls, f)
		extra += max(a.Calls-f, 0)
		if f > 0 {
			d.Found++
		}
	}
	d.Recovered, d.Spurious = ratio(common, fullSum), ratio(extra, thinSum)
	if fullSum == 0 {
		d.Recovered = 1
	}
	return d
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
