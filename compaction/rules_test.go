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

// TestR2Lower: a node that absorbs a member two or more elements finer
// than its name breaks R2, and the member must first be lowered to one
// element below the node's name: lib absorbs lib.B.g.h at level 4, to be
// lowered to lib.B.
func TestR2Lower(t *testing.T) {
	tr, ids := build([]spec{{-1, "main.M.run", 1}, {0, "lib.A.f", 1}, {1, "lib.B.g.h", 1}})
	level := []int32{1, 1, 1}
	level[ids[2]] = 4
	v := Compact(tr, stateWith(tr, level), 0)
	x := v.Check()
	if x == nil || x.Rule != R2 || x.Lower != "lib.B" || v.Nodes[x.Node].Name != "lib" {
		t.Fatalf("%s: violation %+v, want lib to break R2, to be lowered to lib.B", figure(v), x)
	}
	if got, want := x.Describe(v), "lib absorbs lib.B.g.h, two or more levels finer (R2: one package level at a time)"; got != want {
		t.Errorf("Describe = %s, want %s", got, want)
	}
}
