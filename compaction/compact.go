package compaction

import (
	"context"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// Compact returns the compacted tree of t under the granularity state s,
// weighted by value type value, by the group rule of DESIGN.md §5:
//
//  1. A virtual root stands above the call tree's roots, as their common
//     parent.
//  2. Top-down, for each compacted node C: K(C) is the call-tree children
//     of C's members that are not members of C (for the virtual root, the
//     call tree's roots).
//  3. K(C) splits into the connected components of the relation "one
//     compacted name is an element-wise prefix of the other"; each
//     component S seeds a child of C, named by the shortest compacted name
//     in S, which is a prefix of all of them.
//  4. The new node absorbs, repeatedly, every call-tree child of its
//     members whose compacted name starts with its name.
//  5. Its total is the sum of its seeds' totals; its self is its total
//     minus its children's. Siblings go by descending total, then name.
//
// Time is linear in the tree times the name depth, plus sorting siblings
// and the handles. Node ids are the nodes' places in pre-order. t and s
// are not modified, and s must not be modified afterwards (the view refers
// to it).
func Compact(t *analysis.Tree, s *State, value int) *View {
	v, _ := CompactContext(context.Background(), t, s, value)
	return v
}

// CompactContext is Compact that gives up when ctx is done, returning
// ctx's error: it looks at ctx every checkEvery members taken and nodes
// made, and, the first time a state of t is compacted, every checkEvery
// call-tree nodes whose path it hashes.
func CompactContext(ctx context.Context, t *analysis.Tree, s *State, value int) (*View, error) {
	g, err := newGrouping(ctx, t, s, value)
	if err != nil {
		return nil, err
	}
	// Each call-tree node is a member once and a seed at most once, and
	// each group has a seed of its own: sized once, as growing them by
	// appends would copy them several times over.
	n := t.Len()
	g.mem, g.seeds, g.gr = make([]int32, 0, n), make([]int32, 0, n), slices.Grow(g.gr, n+1)
	g.kids = append(g.kids, t.Roots...) // K of the virtual root, group 0
	g.seed(0)
	stack := g.children(nil, 0)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !g.absorb(gi) {
			return nil, g.ctx.Err()
		}
		g.seed(gi)
		stack = g.children(stack, gi)
	}
	if v := g.view(); v != nil {
		return v, nil
	}
	return nil, g.ctx.Err()
}

// checkEvery is how many members are taken between two looks at the
// context: some 10 ms of work.
const checkEvery = 1 << 15

// group is one compacted node in the making.
type group struct {
	name           int32 // compacted name id (index)
	up             int32 // parent group; -1 for the virtual root
	seedLo, seedHi int32 // its seeds are seeds[seedLo:seedHi], ascending
	memLo, memHi   int32 // its members are mem[memLo:memHi], ascending
	kidLo, kidHi   int32 // its child groups are kidLo..kidHi-1
	r2             int32 // its first member that breaks R2, or -1
	tot            int64 // the sum of its seeds' totals
}

// grouping is the work space of the group rule: the groups in the order
// they are made, group 0 being the virtual root. A group's children are
// made together, so they have consecutive ids, above their parent's.
type grouping struct {
	ctx   context.Context
	t     *analysis.Tree
	s     *State
	ix    *index
	value int
	total []int64 // per call-tree node, in the view's value type

	gr    []group
	seeds []int32
	mem   []int32
	kids  []int32 // K of the group last absorbed

	// components' scratch, per compacted name id: mark == stamp means the
	// name is some kid's name in this round; slot is its component's number.
	comp, names []int32
	mark, slot  []int32
	stamp       int32
}

func newGrouping(ctx context.Context, t *analysis.Tree, s *State, value int) (*grouping, error) {
	ix, err := s.indexContext(ctx, t)
	if err != nil {
		return nil, err
	}
	g := &grouping{ctx: ctx, t: t, s: s, ix: ix, value: value, total: t.Total[value],
		mark: make([]int32, len(ix.depth)), slot: make([]int32, len(ix.depth))}
	g.gr = append(g.gr, group{name: -1, up: -1, r2: -1})
	return g, nil
}

// children pushes the child groups of gi on stack, the first one last, so
// that they are taken in order.
func (g *grouping) children(stack []int32, gi int32) []int32 {
	for k := g.gr[gi].kidHi - 1; k >= g.gr[gi].kidLo; k-- {
		stack = append(stack, k)
	}
	return stack
}

// cname returns call-tree node n's compacted name id.
func (g *grouping) cname(n int32) int32 { return g.ix.cname(g.t.Frame[n], g.s.lv.at(n)) }

// absorb collects group gi's members (step 4) and leaves K(gi) in g.kids.
// From each seed it reads the seed's call subtree in pre-order, taking
// every node whose name starts with the group's and skipping the subtrees
// of the others, which are K: one forward pass over the tree's arrays,
// which leaves the members and the kids ascending. It notes the first
// member whose name is two or more elements longer than the group's (R2).
// It reports false, and stops, when the context is done.
func (g *grouping) absorb(gi int32) bool {
	gr := &g.gr[gi]
	d := g.ix.depth[gr.name]
	gr.memLo, gr.r2 = int32(len(g.mem)), -1
	g.kids = g.kids[:0]
	for _, s := range g.seeds[gr.seedLo:gr.seedHi] {
		if !g.take(gr, s, d) {
			return false
		}
		for c, end := s+1, s+g.t.Size[s]; c < end; {
			if g.ix.prefixAt(g.t.Frame[c], g.s.lv.at(c), d) == gr.name {
				if !g.take(gr, c, d) {
					return false
				}
				c++
			} else {
				g.kids = append(g.kids, c)
				c += g.t.Size[c]
			}
		}
	}
	gr.memHi = int32(len(g.mem))
	return true
}

// take adds call-tree node m to group gr, whose name has d elements. It
// reports false when the context is done (looked at every checkEvery
// members).
func (g *grouping) take(gr *group, m, d int32) bool {
	g.mem = append(room(g.mem, 1), m)
	if gr.r2 < 0 && g.ix.prefixAt(g.t.Frame[m], g.s.lv.at(m), d+2) >= 0 {
		gr.r2 = m
	}
	return len(g.mem)%checkEvery != 0 || g.ctx.Err() == nil
}

// seed makes the child groups of group up from K(up), in g.kids (step 3):
// one per component, with its seeds (ascending, as the kids are) and its
// total, in sibling order.
func (g *grouping) seed(up int32) {
	first := int32(len(g.gr))
	g.gr[up].kidLo, g.gr[up].kidHi = first, first
	if len(g.kids) == 0 {
		return
	}
	// At most a group per kid, and a seed per kid.
	g.gr, g.seeds = room(g.gr, len(g.kids)), room(g.seeds, len(g.kids))
	if len(g.kids) == 1 { // one kid, one group: no split to make
		k := g.kids[0]
		g.gr = append(g.gr, group{name: g.cname(k), up: up, r2: -1, tot: g.total[k],
			seedLo: int32(len(g.seeds)), seedHi: int32(len(g.seeds)) + 1})
		g.seeds = append(g.seeds, k)
		g.gr[up].kidHi++
		return
	}
	for _, name := range g.components(g.kids) {
		g.gr = append(g.gr, group{name: name, up: up, r2: -1})
	}
	// The seeds of each group, in a run of their own.
	lo := int32(len(g.seeds))
	for _, c := range g.comp {
		g.gr[first+c].seedHi++
	}
	for gi := first; gi < int32(len(g.gr)); gi++ {
		n := g.gr[gi].seedHi
		g.gr[gi].seedLo, g.gr[gi].seedHi = lo, lo
		lo += n
	}
	g.seeds = g.seeds[:lo]
	for k, c := range g.comp {
		gr := &g.gr[first+c]
		g.seeds[gr.seedHi] = g.kids[k]
		gr.seedHi++
		gr.tot += g.total[g.kids[k]]
	}
	g.gr[up].kidHi = int32(len(g.gr))
	slices.SortFunc(g.gr[first:], func(a, b group) int { return g.ix.order(a.tot, a.name, b.tot, b.name) })
}

// room returns s with room for n more elements, doubling its capacity
// when it must grow: append grows a large slice by a quarter, which makes
// the allocations of a slice grown one element at a time five times its
// final size.
func room[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, len(s)+n)
	}
	return s
}

// components splits nodes into the connected components of the prefix
// relation on their compacted names. A component is named by its shortest
// name, which is a prefix of all of its names; so a node's component is
// named by the shortest prefix of its own name that is some node's name.
// It returns the components' names, in order of first appearance, and
// leaves each node's component number in g.comp.
func (g *grouping) components(nodes []int32) []int32 {
	ix := g.ix
	g.stamp++
	g.comp, g.names = g.comp[:0], g.names[:0]
	for _, k := range nodes { // comp holds the nodes' names for now
		c := g.cname(k)
		g.mark[c] = g.stamp
		g.comp = append(g.comp, c)
	}
	for i, c := range g.comp {
		r, f := c, g.t.Frame[nodes[i]]
		for d := int32(1); d < ix.depth[c]; d++ {
			if p := ix.prefixAt(f, ix.depth[c], d); g.mark[p] == g.stamp || g.mark[p] == -g.stamp {
				r = p
				break
			}
		}
		if g.mark[r] == g.stamp { // the first node of its component
			g.mark[r] = -g.stamp
			g.slot[r] = int32(len(g.names))
			g.names = append(g.names, r)
		}
		g.comp[i] = g.slot[r]
	}
	return g.names
}

// view makes the View of the groups. A node's id is its place in
// pre-order: its parent's id plus one plus the sizes of the subtrees of
// its elder siblings.
func (g *grouping) view() *View {
	n := int32(len(g.gr) - 1)
	size := make([]int32, n+1)
	for gi := n; gi > 0; gi-- {
		size[gi]++
		size[g.gr[gi].up] += size[gi]
	}
	id := make([]int32, n+1) // by group
	id[0] = -1
	for gi := range g.gr {
		next := id[gi] + 1
		for k := g.gr[gi].kidLo; k < g.gr[gi].kidHi; k++ {
			id[k], next = next, next+size[k]
		}
	}
	v := &View{Tree: g.t, Value: g.value, Before: g.t.Len(), After: int(n), Nodes: make([]*Node, n), state: g.s}
	nodes := make([]Node, n)
	nodeOf, parent := flatFor(g.t.Len(), 0), flatFor(int(n), 0)
	for gi := int32(1); gi <= n; gi++ {
		if gi%checkEvery == 0 && g.ctx.Err() != nil {
			return nil
		}
		gr, nd := &g.gr[gi], &nodes[id[gi]]
		g.node(gi, nd)
		nd.Children = id[gr.kidLo:gr.kidHi:gr.kidHi]
		v.Nodes[id[gi]] = nd
		for _, m := range nd.Members {
			nodeOf[m] = id[gi]
		}
		parent[id[gi]] = id[gr.up]
	}
	v.Roots = id[g.gr[0].kidLo:g.gr[0].kidHi]
	v.nodeOf, v.parent = pagesOf(nodeOf, g.t.Len()), pagesOf(parent, int(n))
	v.sortHashes()
	return v
}

// node fills in nd from group gi, but for its children: its name, totals,
// members, seeds, the first member that breaks R2, and its hash.
func (g *grouping) node(gi int32, nd *Node) {
	gr := &g.gr[gi]
	nd.name, nd.Name, nd.r2 = gr.name, g.ix.str[gr.name], gr.r2
	nd.Total, nd.Self = gr.tot, gr.tot
	for k := gr.kidLo; k < gr.kidHi; k++ {
		nd.Self -= g.gr[k].tot
	}
	nd.Members = g.mem[gr.memLo:gr.memHi:gr.memHi]
	nd.seeds = g.seeds[gr.seedLo:gr.seedHi:gr.seedHi]
	nd.hash = startHash(g.ix, nd.Members[0], nd.Name)
}
