package compaction

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
)

// Fold returns v shown in at most n nodes (n at least 1): v itself when it
// has no more, else a view where the lightest regions of v fold into one
// node per parent, named "other (K nodes)", that holds their weight
// (pprof's -nodecount drops such nodes; a fold keeps their weight in
// sight). Starting from nothing shown, it shows v's nodes heaviest first
// (by absolute total, then in pre-order), each under a parent already
// shown, while the view stays within n nodes, counting one fold node per
// parent that still has children folded; a node that does not fit is
// skipped for lighter ones. A fold that would hold a single leaf shows
// the leaf instead, at the same cost.
//
// The folded view keeps v's tree, value type and state; its node ids are
// its own (in pre-order). Node.Folded counts the nodes of v a fold node
// holds. Step on a folded view steps v (a fold node cannot be stepped),
// and Fit starts from v. Time is v's size times its log.
func Fold(v *View, n int) *View {
	if v.whole != nil {
		v = v.whole
	}
	if n < 1 || v.After <= n {
		return v
	}
	shown := choose(v, n)
	return v.folded(shown)
}

// choose returns, by node id of v, whether the node is shown within n
// nodes (fold nodes included).
func choose(v *View, n int) []bool {
	shown := make([]bool, len(v.Nodes))
	hidden := map[int32]int{-1: len(v.Roots)} // per parent shown (-1: the roots): its children not shown
	count := 1                                // nodes shown, fold nodes included: the roots' fold
	q := &frontier{v: v}
	for _, r := range v.Roots {
		heap.Push(q, r)
	}
	for q.Len() > 0 {
		x := heap.Pop(q).(int32)
		p := v.Parent(x)
		cost := 1
		if hidden[p] == 1 {
			cost-- // the last hidden child: its parent's fold goes
		}
		if len(v.Nodes[x].Children) > 0 {
			cost++ // its children fold under it
		}
		if count+cost > n {
			continue
		}
		shown[x], count = true, count+cost
		hidden[p]--
		hidden[x] = len(v.Nodes[x].Children)
		for _, c := range v.Nodes[x].Children {
			heap.Push(q, c)
		}
	}
	return shown
}

// frontier is a heap of node ids, heaviest (by absolute total) first,
// then in pre-order.
type frontier struct {
	v   *View
	ids []int32
}

func (q *frontier) Len() int { return len(q.ids) }
func (q *frontier) Less(i, j int) bool {
	a, b := q.v.Nodes[q.ids[i]].Total, q.v.Nodes[q.ids[j]].Total
	return cmp.Or(cmp.Compare(abs(b), abs(a)), cmp.Compare(q.v.Rank(q.ids[i]), q.v.Rank(q.ids[j]))) < 0
}
func (q *frontier) Swap(i, j int) { q.ids[i], q.ids[j] = q.ids[j], q.ids[i] }
func (q *frontier) Push(x any)    { q.ids = append(q.ids, x.(int32)) }
func (q *frontier) Pop() any {
	x := q.ids[len(q.ids)-1]
	q.ids = q.ids[:len(q.ids)-1]
	return x
}

func abs(x int64) int64 { return max(x, -x) }

// folded makes the view of v that shows the nodes marked shown, with one
// fold node per parent holding the rest of its children's subtrees.
func (v *View) folded(shown []bool) *View {
	b := &folder{v: v, shown: shown}
	b.Roots = b.kids(-1)
	nv := &View{Tree: v.Tree, Value: v.Value, Nodes: b.nodes, Roots: b.Roots, Before: v.Before,
		After: len(b.nodes), state: v.state, whole: v, orig: b.orig}
	nodeOf, parent := flatFor(v.Tree.Len(), -1), flatFor(len(b.nodes), -1)
	for i, nd := range b.nodes {
		for _, m := range nd.Members {
			nodeOf[m] = int32(i)
		}
		for _, c := range nd.Children {
			parent[c] = int32(i)
		}
	}
	nv.nodeOf, nv.parent = pagesOf(nodeOf, v.Tree.Len()), pagesOf(parent, len(b.nodes))
	nv.sortHashes()
	return nv
}

// folder builds a folded view top-down.
type folder struct {
	v     *View
	shown []bool
	nodes []*Node
	orig  []int32 // by new id: the id in v, -1 for a fold node
	Roots []int32
}

// kids makes the shown children of v's node p (-1: the roots), and a fold
// node for the others, and returns their new ids by descending total,
// then name. A fold of one leaf shows the leaf.
func (b *folder) kids(p int32) []int32 {
	var out, rest []int32
	for _, c := range b.v.children(p) {
		if b.shown[c] {
			out = append(out, b.node(c))
		} else {
			rest = append(rest, c)
		}
	}
	switch {
	case len(rest) == 1 && len(b.v.Nodes[rest[0]].Children) == 0:
		out = append(out, b.node(rest[0]))
	case len(rest) > 0:
		out = append(out, b.fold(rest))
	}
	slices.SortStableFunc(out, func(x, y int32) int {
		return cmp.Or(cmp.Compare(b.nodes[y].Total, b.nodes[x].Total), cmp.Compare(b.nodes[x].Name, b.nodes[y].Name))
	})
	return out
}

// node adds v's node i, shown, with its children.
func (b *folder) node(i int32) int32 {
	id := int32(len(b.nodes))
	cp := *b.v.Nodes[i]
	b.nodes, b.orig = append(b.nodes, &cp), append(b.orig, i)
	cp.Children = b.kids(i)
	return id
}

// fold adds one node holding the subtrees of v's nodes rest.
func (b *folder) fold(rest []int32) int32 {
	nd := &Node{name: -1, r2: -1}
	for _, r := range rest {
		nd.Total += b.v.Nodes[r].Total
		b.v.walk(r, func(i int32) {
			nd.Folded++
			nd.Members = append(nd.Members, b.v.Nodes[i].Members...)
		})
	}
	nd.Self = nd.Total
	slices.Sort(nd.Members)
	nd.Name = fmt.Sprintf("other (%d nodes)", nd.Folded)
	if b.v.state != nil {
		nd.hash = startHash(b.v.state.ix, nd.Members[0], nd.Name)
	}
	b.nodes, b.orig = append(b.nodes, nd), append(b.orig, -1)
	return int32(len(b.nodes) - 1)
}

// walk calls f on node i and every node below it.
func (v *View) walk(i int32, f func(int32)) {
	f(i)
	for _, c := range v.Nodes[i].Children {
		v.walk(c, f)
	}
}

// Whole returns the view v folds (see Fold), or v itself.
func (v *View) Whole() *View {
	if v.whole != nil {
		return v.whole
	}
	return v
}
