package compaction

import "testing"

// TestStepNothingToChange: a step that changes nothing shown is refused
// with an error naming the node (the first root here), or all, and saying
// why.
func TestStepNothingToChange(t *testing.T) {
	tr := toy(t)
	for _, c := range []struct {
		level, delta int
		node, all    string
	}{
		{1, -1, "compact lib1: already at level 1 (the top name element); nothing to compact",
			"compact all: already at level 1 (the top name element); nothing to compact"},
		{9, +1, "expand lib1.Whale.breath: already at full names; nothing to expand",
			"expand all: already at full names; nothing to expand"},
	} {
		v := Compact(tr, NewState(tr, c.level), 0)
		if _, _, err := Step(v, 0, c.delta); err == nil || err.Error() != c.node {
			t.Errorf("level %d, step %+d on %s: %v, want %s", c.level, c.delta, v.Nodes[0].Name, err, c.node)
		}
		if _, _, err := Step(v, -1, c.delta); err == nil || err.Error() != c.all {
			t.Errorf("level %d, uniform step %+d: %v, want %s", c.level, c.delta, err, c.all)
		}
	}
}
