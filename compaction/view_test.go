package compaction

import (
	"slices"
	"testing"
)

// TestAssemble: a view made by hand has the parents, depths, paths and
// pre-order its Children lists give, and its ids are exactly 0..n-1.
func TestAssemble(t *testing.T) {
	v := Assemble([]*Node{
		{Name: "b", Children: []int32{2}, Members: []int32{1}},
		{Name: "a", Children: []int32{0}, Members: []int32{0}},
		{Name: "c", Members: []int32{2}},
	}, []int32{1})
	for i, want := range []struct {
		parent int32
		depth  int
		path   string
	}{{1, 1, "a > b"}, {-1, 0, "a"}, {0, 2, "a > b > c"}} {
		if p := v.Parent(int32(i)); p != want.parent {
			t.Fatalf("node %d: parent %d, want %d", i, p, want.parent) // before Depth walks a wrong chain
		}
		if d, path := v.Depth(int32(i)), v.Path(int32(i)); d != want.depth || path != want.path {
			t.Errorf("node %d: depth %d, path %q; want %d, %q", i, d, path, want.depth, want.path)
		}
	}
	if got := v.Preorder(); !slices.Equal(got, []int32{1, 0, 2}) {
		t.Errorf("Preorder = %v, want [1 0 2]", got)
	}
	for i, want := range map[int32]bool{-1: false, 0: true, 2: true, 3: false} {
		if v.Has(i) != want {
			t.Errorf("Has(%d) = %v, want %v", i, !want, want)
		}
	}
}
