package plotting

import (
	"slices"
	"strings"
	"testing"
)

// TestElements: a compacted node's elements concatenate to its name, come
// from its frame's elements in the call tree (Figure 10 keeps lib2 whole and
// lib1's classes), and from splitting the name without a call tree.
func TestElements(t *testing.T) {
	for fig, v := range toyViews(t) {
		for _, i := range v.Preorder() {
			if got := strings.Join(elements(v, i), ""); got != v.Nodes[i].Name {
				t.Errorf("%s: elements of %s join to %q", fig, v.Nodes[i].Name, got)
			}
		}
	}
	v := toyViews(t)["fig10"]
	want := map[string][]string{"lib1.Whale.breath": {"lib1", ".Whale", ".breath"}, "lib2": {"lib2"}}
	for _, i := range v.Preorder() {
		if w, ok := want[v.Nodes[i].Name]; ok && !slices.Equal(elements(v, i), w) {
			t.Errorf("elements of %s = %q, want %q", v.Nodes[i].Name, elements(v, i), w)
		}
	}
	v.Nodes[v.Roots[0]].Name = "renamed.Whale"
	if got, want := elements(v, v.Roots[0]), []string{"renamed", ".Whale"}; !slices.Equal(got, want) {
		t.Errorf("elements of a node whose frame's elements do not make its name = %q, want %q", got, want)
	}
	bare := makeView(&tnode{name: "net/http.(*conn).serve", self: 1})
	if got, want := elements(bare, 0), []string{"net", "/http", ".(*conn)", ".serve"}; !slices.Equal(got, want) {
		t.Errorf("elements without a call tree = %q, want %q", got, want)
	}
}

// TestAddedNothing: nothing is new when there is no view to compare with,
// or the view is the same.
func TestAddedNothing(t *testing.T) {
	v := toyViews(t)["fig6"]
	if added(nil, v) != nil || added(v, v) != nil {
		t.Errorf("added(nil, v) or added(v, v) is not nil")
	}
}
