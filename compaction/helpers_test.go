package compaction

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
)

// spec is one node of a hand-written or random tree: its parent's index
// (-1 for a root), its full name and the weight of the sample ending there.
type spec struct {
	parent int
	name   string
	self   int64
}

// build makes a call tree from specs through analysis.NewBuilder, one
// sample per node. It returns the tree and, per spec, its call-tree node id
// (specs with the same path share a node).
func build(specs []spec) (*analysis.Tree, []int32) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Profile().Lang = analysis.LangJVM
	paths := make([][]int32, len(specs))
	stacks := make([]int32, len(specs))
	for i, s := range specs {
		f := b.Frame(analysis.Frame{Name: s.name})
		if s.parent >= 0 {
			paths[i] = append(slices.Clone(paths[s.parent]), f)
		} else {
			paths[i] = []int32{f}
		}
		stacks[i] = b.Stack(paths[i])
		b.Add(stacks[i], []int64{s.self}, 0, false, "", nil)
	}
	t := analysis.NewTree(b.Finish())
	ids := make([]int32, len(specs))
	for i := range specs {
		ids[i] = t.StackNode[stacks[i]]
	}
	return t, ids
}

// toy is the ProfVis worked example (demo:profvis-toy).
func toy(t testing.TB) *analysis.Tree {
	t.Helper()
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	return analysis.NewTree(p)
}

// figure renders v in DESIGN.md §5's notation: name [total] → child, or
// → {child, child} for several children.
func figure(v *View) string {
	var node func(i int32) string
	node = func(i int32) string {
		nd := v.Nodes[i]
		s := fmt.Sprintf("%s [%d]", nd.Name, nd.Total)
		switch len(nd.Children) {
		case 0:
			return s
		case 1:
			return s + " → " + node(nd.Children[0])
		}
		parts := make([]string, len(nd.Children))
		for k, c := range nd.Children {
			parts[k] = node(c)
		}
		return s + " → {" + strings.Join(parts, ", ") + "}"
	}
	parts := make([]string, len(v.Roots))
	for k, r := range v.Roots {
		parts[k] = node(r)
	}
	return strings.Join(parts, ", ")
}

// Alphabets for random names: a package, then a class, a method, a suffix.
var alphabet = [][]string{{"a", "b", "c"}, {".X", ".Y"}, {".f", ".g"}, {".p", ".q"}}

// randomSpecs makes a random forest of up to n nodes. With fixed > 0 every
// name has that many elements; otherwise 1 to 4.
func randomSpecs(r *rand.Rand, n, fixed int) []spec {
	size := 1 + r.IntN(n)
	out := make([]spec, size)
	for i := range out {
		p := -1
		if i > 0 && r.IntN(6) > 0 {
			p = r.IntN(i)
		}
		k := fixed
		if k == 0 {
			k = 1 + r.IntN(len(alphabet))
		}
		var b strings.Builder
		for e := 0; e < k; e++ {
			a := alphabet[e]
			b.WriteString(a[r.IntN(len(a))])
		}
		out[i] = spec{parent: p, name: b.String(), self: int64(r.IntN(4))}
	}
	return out
}

// randomLevels gives every node an arbitrary level in 1..5.
func randomLevels(r *rand.Rand, t *analysis.Tree) *State {
	level := make([]int32, t.Len())
	for i := range level {
		level[i] = int32(1 + r.IntN(5))
	}
	return stateWith(t, level)
}

// stateWith returns the state with node n of t at level[n].
func stateWith(t *analysis.Tree, level []int32) *State {
	s := NewState(t, 1)
	w := s.lv.writer()
	for n, g := range level {
		w.set(int32(n), g)
	}
	return &State{lv: w.l, ix: s.ix}
}

// partition returns, per call-tree node, the smallest member of its
// compacted node in v.
func partition(v *View) []int32 {
	out := make([]int32, v.Tree.Len())
	for i := range out {
		out[i] = v.Nodes[v.NodeOf(int32(i))].Members[0]
	}
	return out
}
