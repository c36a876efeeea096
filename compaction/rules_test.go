package compaction

import "testing"

// TestFullNameNotCoarserThanParent: R1 concerns names that compaction
// shortened: the function lib, whose full name lib.A.f starts with, may
// sit under lib.A (lib.A.f at level 2), at the top or deeper.
func TestFullNameNotCoarserThanParent(t *testing.T) {
	for _, specs := range [][]spec{
		{{-1, "lib.A.f", 1}, {0, "lib", 1}},
		{{-1, "main.M.run", 1}, {0, "lib.A.f", 1}, {1, "lib", 1}},
	} {
		tr, ids := build(specs)
		level := make([]int32, tr.Len())
		for i := range level {
			level[i] = 9
		}
		level[ids[len(specs)-2]] = 2
		v := Compact(tr, stateWith(tr, level), 0)
		if x := v.Check(); x != nil {
			t.Errorf("%s: %s", figure(v), x.Describe(v))
		}
	}
}
