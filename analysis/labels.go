package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// LabelKey summarises one label key of a profile's samples: how many
// samples carry it, how many distinct values it has, and its unit when it
// is numeric (NumLabelUnits).
type LabelKey struct {
	Key     string
	Samples int
	Values  int
	Unit    string // "" for a string label
}

// LabelKeys returns the label keys of p's samples, by key.
func LabelKeys(p *Profile) []LabelKey {
	samples := map[string]int{}
	values := map[string]map[string]bool{}
	perSet := make([]int, len(p.labelSets)+1)
	for i := range p.Samples {
		perSet[p.Samples[i].labels]++
	}
	for i, set := range p.labelSets {
		for k, vs := range set {
			samples[k] += perSet[i+1]
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			for _, v := range vs {
				values[k][v] = true
			}
		}
	}
	out := make([]LabelKey, 0, len(samples))
	for k, n := range samples {
		out = append(out, LabelKey{Key: k, Samples: n, Values: len(values[k]), Unit: p.NumLabelUnits[k]})
	}
	slices.SortFunc(out, func(a, b LabelKey) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// String shows the key as info lists it: "thread_id (6 values, on all
// samples)", "bytes (numeric, in bytes; 120 values, on 80% of samples)".
func (k LabelKey) String(samples int) string {
	kind := ""
	if k.Unit != "" {
		kind = "numeric, in " + k.Unit + "; "
	}
	on := "on all samples"
	if k.Samples < samples {
		on = "on " + Percent(int64(k.Samples), int64(samples)) + " of samples"
	}
	plural := "s"
	if k.Values == 1 {
		plural = ""
	}
	return fmt.Sprintf("%s (%s%d value%s, %s)", k.Key, kind, k.Values, plural, on)
}
