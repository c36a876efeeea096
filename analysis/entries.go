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

// FirstEntries returns, per node of t, when it was first entered
// (nanoseconds since the profile's start, -1 for a node never entered), by
// the same steps as EntryCounts: the entry events of an evented recording,
// or samples in time order. It reports false, with no times, when the
// profile has neither; siblings are then ordered by value.
func FirstEntries(t *Tree) ([]int64, bool) {
	src, steps := Steps(t.Profile)
	if src == "" {
		return nil, false
	}
	first := make([]int64, t.Len())
	for i := range first {
		first[i] = -1
	}
	for s := range steps {
		if s.Stack < 0 {
			continue
		}
		n := t.StackNode[s.Stack]
		for k := s.Entered; k > 0 && n >= 0; k-- {
			if first[n] < 0 {
				first[n] = s.Time
			}
			n = t.Parent[n]
		}
	}
	return first, true
}
