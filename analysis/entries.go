package analysis

// EntryCounts returns how many times each node of t was entered: exactly,
// from the entry events of an evented recording (CountEvents), else
// recovered from samples in time order by diffing consecutive stacks of each
// thread (CountStackDiffs, a lower bound: see Steps). It reports false when
// the profile has neither. Time is linear in the steps times the frames
// each enters.
func EntryCounts(t *Tree) (Counts, bool) {
	src, steps := Steps(t.Profile)
	if src == "" {
		return Counts{}, false
	}
	calls := make([]int64, t.Len())
	for s := range steps {
		if s.Stack < 0 {
			continue
		}
		n := t.StackNode[s.Stack]
		for k := s.Entered; k > 0 && n >= 0; k-- {
			calls[n]++
			n = t.Parent[n]
		}
	}
	return Counts{Source: src, Calls: calls}, true
}
