package avid

import "github.com/proflens/proflens/analysis"

// CelEntries returns, per node of t, how many times it was entered in cel
// k (from 0) of the cels step cuts t's profile into, and when it was first
// entered in it (nanoseconds since the profile's start, -1 for a node not
// entered in the cel), counted from the steps as analysis.EntryCounts and
// analysis.FirstEntries count the whole recording; and the number of cels.
// k out of range is no error: the caller says which cels there are.
func CelEntries(t *analysis.Tree, step CelStep, k int) (calls, first []int64, n int, err error) {
	n, steps, err := CelOfSteps(t, step)
	if err != nil || k < 0 || k >= n {
		return nil, nil, n, err
	}
	calls, first = make([]int64, t.Len()), make([]int64, t.Len())
	for i := range first {
		first[i] = -1
	}
	for cel, s := range steps {
		if cel > k {
			break // steps come in time order, so cels in order
		}
		if cel < k || s.Stack < 0 {
			continue
		}
		nd := t.StackNode[s.Stack]
		for e := s.Entered; e > 0 && nd >= 0; e-- {
			calls[nd]++
			if first[nd] < 0 {
				first[nd] = s.Time
			}
			nd = t.Parent[nd]
		}
	}
	return calls, first, n, nil
}
