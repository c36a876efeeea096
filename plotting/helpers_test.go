package plotting

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// tnode is a node of a hand-made compacted tree, before flattening.
type tnode struct {
	name string
	self int64
	kids []*tnode
}

func (n *tnode) total() int64 {
	t := n.self
	for _, k := range n.kids {
		t += k.total()
	}
	return t
}

// makeView flattens hand-made trees into a View in pre-order, children by
// descending total then name; no call tree.
func makeView(roots ...*tnode) *compaction.View {
	var nodes []*compaction.Node
	var top []int32
	var add func(n *tnode, depth int32) int32
	sortKids := func(ns []*tnode) {
		sort.SliceStable(ns, func(i, j int) bool {
			if a, b := ns[i].total(), ns[j].total(); a != b {
				return a > b
			}
			return ns[i].name < ns[j].name
		})
	}
	add = func(n *tnode, depth int32) int32 {
		id := int32(len(nodes))
		nodes = append(nodes, &compaction.Node{Name: n.name, Total: n.total(), Self: n.self, Members: []int32{id}})
		sortKids(n.kids)
		var kids []int32
		for _, k := range n.kids {
			kids = append(kids, add(k, depth+1))
		}
		nodes[id].Children = kids
		return id
	}
	sortKids(roots)
	for _, r := range roots {
		top = append(top, add(r, 0))
	}
	return compaction.Assemble(nodes, top)
}

var randNames = []string{"a", "a.X", "a.X.f", "a.Y.g", "b", "b.Z", "b.Z.h", "c.W.k", "main", "main.run", "lib2.Muscle"}

// randomTree makes a random tree of about n nodes; siblings have distinct
// names, some nodes have no self weight and some have zero total.
func randomTree(r *rand.Rand, n int, depth int) *tnode {
	root := &tnode{name: randNames[r.Intn(len(randNames))], self: int64(r.Intn(4))}
	budget := n - 1
	var grow func(t *tnode, d int)
	grow = func(t *tnode, d int) {
		if d >= depth || budget <= 0 {
			return
		}
		k := r.Intn(5)
		used := map[string]bool{}
		for i := 0; i < k && budget > 0; i++ {
			name := randNames[r.Intn(len(randNames))] + fmt.Sprint(r.Intn(4))
			if used[name] {
				continue
			}
			used[name] = true
			budget--
			c := &tnode{name: name, self: int64(r.Intn(3)) * int64(r.Intn(100))}
			t.kids = append(t.kids, c)
			grow(c, d+1)
		}
	}
	grow(root, 0)
	return root
}

func randomView(r *rand.Rand, n int) *compaction.View {
	var roots []*tnode
	used := map[string]bool{}
	for i := 0; i < 1+r.Intn(3); i++ {
		t := randomTree(r, n/2+1, 3+r.Intn(8))
		if !used[t.name] {
			used[t.name] = true
			roots = append(roots, t)
		}
	}
	return makeView(roots...)
}

// everyKind returns options for every kind of picture in the table, in its
// order, and the bottom-up graph of each kind that draws one: the tests that
// take it cover a new kind without an edit.
func everyKind() []Options {
	var out []Options
	for _, k := range kinds {
		out = append(out, Options{Layout: k.Name})
		if k.Inverts {
			out = append(out, Options{Layout: k.Name, Inverted: true})
		}
	}
	return out
}

// boxed gives the blueprint layout what it draws, the view's boxes without
// counts (blueprint.Of with none); other layouts are left as they are.
func boxed(v *compaction.View, o Options) Options {
	if o.Layout == LayoutBlueprint && o.Blueprint == nil {
		o.Blueprint = &Blueprint{Boxes: blueprint.Of(v, analysis.Counts{}, nil, nil, blueprint.ByContext)}
	}
	return o
}

// withTips returns o with the kernel's tooltip lines for a profile named
// name: expand and compact for a node, the maxnodes option for a fold mark.
func withTips(o Options, name string) Options {
	o.Profile = name
	o.Commands = func(h string) []string { return []string{"expand " + name + " " + h, "compact " + name + " " + h} }
	o.More = "maxnodes=N draws more"
	return o
}

// longNames is a root with n children, each with a child, all named with
// over 1,100 characters, so that the byte budget binds before the node
// budget.
func longNames(n int) *compaction.View {
	long := strings.Repeat("github.com/some/very/long/module/path/", 30)
	root := &tnode{name: long + "main"}
	for i := range n {
		kid := &tnode{name: fmt.Sprintf("%sf%d", long, i), self: int64(1 + i%7)}
		kid.kids = []*tnode{{name: long + "leaf", self: int64(1 + i%5)}}
		root.kids = append(root.kids, kid)
	}
	return makeView(root)
}
