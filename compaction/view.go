package compaction

import (
	"sync"

	"github.com/proflens/proflens/analysis"
)

// Node is one compacted node: a connected component of the take-over
// relation (DESIGN.md §5). A Node is immutable once its view is made, and
// views share the nodes a step does not change.
type Node struct {
	Name     string  // displayed compacted name (the shortest among the members)
	Children []int32 // ids, by descending Total, then Name
	Total    int64   // sum of the totals of the highest members, in the view's value type
	Self     int64   // Total minus the children's totals
	Members  []int32 // call-tree node ids, ascending
	// Folded is, for a node that Fold made, the number of compacted
	// nodes whose subtrees it holds; 0 for a compacted node.
	Folded int

	name  int32   // compacted name id in the state's index; -1 for a fold node
	r2    int32   // the first member that breaks R2 here, or -1
	seeds []int32 // its highest members
	hash  uint64  // hash of its name and first seed's path (see handles)
}

// View is a compacted tree: the pure result of a call tree and a granularity
// state. Its nodes are named by ids 0..After-1, indices into Nodes. A view
// made by Compact numbers its nodes in pre-order; a view made by Step keeps
// the ids of most nodes it did not change (see Step), so its ids are in no
// particular order. Preorder lists a view's nodes in pre-order.
type View struct {
	Tree   *analysis.Tree
	Value  int     // value type index into Tree.Profile.ValueTypes
	Nodes  []*Node // by id
	Roots  []int32 // by descending Total, then Name
	Before int     // call-tree nodes
	After  int     // compacted nodes

	sorted []uint64 // every node's hash, in order (see handles)
	state  *State   // the state the view was computed from
	whole  *View    // for a folded view (Fold), the view it folds
	orig   []int32  // for a folded view, by id: the node's id in whole, -1 for a fold node

	nodeOf  paged   // per call-tree node: the id of its compacted node
	parent  paged   // per id: the id of the parent node, -1 for a root
	pre     []int32 // the ids in pre-order; built on first use
	rank    []int32 // by id: the position in pre; built with it
	preOnce sync.Once
}

// Parent returns the id of node i's parent, -1 for a root. (A node's parent
// is kept apart from the node, so that a step that moves a node under a new
// parent need not copy it.)
func (v *View) Parent(i int32) int32 { return v.parent.at(i) }

// NodeOf returns the id of the compacted node that call-tree node n belongs
// to.
func (v *View) NodeOf(n int32) int32 { return v.nodeOf.at(n) }

// Preorder returns the ids of v's nodes in pre-order: each root by
// descending total, followed by its subtree. The first call builds the list
// in time linear in the view; it must not be modified.
func (v *View) Preorder() []int32 {
	v.preOnce.Do(func() {
		v.pre = make([]int32, 0, v.After)
		stack := make([]int32, 0, 64)
		for k := len(v.Roots) - 1; k >= 0; k-- {
			stack = append(stack, v.Roots[k])
		}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			v.pre = append(v.pre, i)
			kids := v.Nodes[i].Children
			for k := len(kids) - 1; k >= 0; k-- {
				stack = append(stack, kids[k])
			}
		}
		v.rank = make([]int32, len(v.Nodes))
		for k, i := range v.pre {
			v.rank[i] = int32(k)
		}
	})
	return v.pre
}

// Rank returns the position of node i in pre-order (see Preorder): an
// order of nodes that, unlike their ids, does not depend on the steps that
// led to the view.
func (v *View) Rank(i int32) int32 {
	v.Preorder()
	return v.rank[i]
}

// Assemble returns a view of nodes made by hand, with the given roots, for
// testing code that draws views on trees that no profile gives. Each
// node's parent is taken from the Children lists, each member's node from
// the Members lists, and Before and After are the number of nodes. The
// view has no call tree or state: Step and Check do not apply to it, its
// handles are all zeros, and Elements splits names as analysis.Split does
// for an unknown language.
func Assemble(nodes []*Node, roots []int32) *View {
	n, members := len(nodes), int32(0)
	parent := flatFor(n, -1)
	for i, nd := range nodes {
		for _, c := range nd.Children {
			parent[c] = int32(i)
		}
		for _, m := range nd.Members {
			members = max(members, m+1)
		}
	}
	nodeOf := flatFor(int(members), -1)
	for i, nd := range nodes {
		for _, m := range nd.Members {
			nodeOf[m] = int32(i)
		}
	}
	return &View{Nodes: nodes, Roots: roots, Before: n, After: n,
		parent: pagesOf(parent, n), nodeOf: pagesOf(nodeOf, int(members))}
}

// Elements returns the name elements of node i's name: the strings that,
// joined, give it, the first one the top unit (package, module) and every
// later one with its leading separator (".Muscle"), as analysis.Split
// cuts a frame's name. They are the first elements of every member's name.
func (v *View) Elements(i int32) []string {
	nd := v.Nodes[i]
	if v.state == nil || nd.name < 0 {
		return analysis.Split(nd.Name, analysis.LangAuto)
	}
	ix := v.state.ix
	out := make([]string, ix.depth[nd.name])
	for k, c := len(out)-1, nd.name; k >= 0; k, c = k-1, ix.parent[c] {
		out[k] = ix.str[c]
		if p := ix.parent[c]; p >= 0 {
			out[k] = out[k][len(ix.str[p]):]
		}
	}
	return out
}

// Depth returns the depth of node i: 0 for a root. Time is the depth.
func (v *View) Depth(i int32) int {
	d := 0
	for p := v.Parent(i); p >= 0; p = v.Parent(p) {
		d++
	}
	return d
}

// Has reports whether i is the id of a node of v.
func (v *View) Has(i int32) bool { return i >= 0 && int(i) < len(v.Nodes) }

// children returns the children of node i, or the roots for -1.
func (v *View) children(i int32) []int32 {
	if i < 0 {
		return v.Roots
	}
	return v.Nodes[i].Children
}

// setChildren gives node i, or the roots for -1, the children kids. The
// node is copied first: it may be shared with another view.
func (v *View) setChildren(i int32, kids []int32) {
	if i < 0 {
		v.Roots = kids
		return
	}
	cp := *v.Nodes[i]
	cp.Children = kids
	v.Nodes[i] = &cp
}
