package compaction

import (
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
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

// TestElementsByLanguage: a node's name elements are those its profile's language
// cuts, the top unit first, whole: at level 1 a JavaScript file, a JVM
// package, a Go import path are one element; at every level the elements
// join into the name.
func TestElementsByLanguage(t *testing.T) {
	for _, c := range []struct {
		lang analysis.Lang
		name string
		top  string
	}{
		{analysis.LangJS, "prepare file:///u/p/src/wrappers.js:4:35", "wrappers.js"},
		{analysis.LangJVM, "org.apache.axis.utils.ClassUtils.forName", "org.apache.axis"},
		{analysis.LangGo, "github.com/google/pprof/profile.(*Profile).Write", "github.com/google/pprof"},
	} {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
		b.Profile().Lang = c.lang
		b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: c.name})}), []int64{1}, 0, false, "", nil)
		tr := analysis.NewTree(b.Finish())
		for g := 1; g <= 4; g++ {
			v := Compact(tr, NewState(tr, g), 0)
			e := v.Elements(0)
			if e[0] != c.top || strings.Join(e, "") != v.Nodes[0].Name || g == 1 && len(e) != 1 {
				t.Errorf("%s at level %d: elements %q of %q, want %q first, joining into the name", c.name, g, e, v.Nodes[0].Name, c.top)
			}
		}
	}
}
