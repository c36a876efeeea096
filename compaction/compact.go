package compaction

import (
	"slices"
	"sync"

	"github.com/proflens/proflens/analysis"
)

// Compact returns the compacted tree of t under the granularity state s,
// weighted by value type value. It implements the group rule of DESIGN.md §5:
// below a virtual root, the call-tree children of a compacted node's members
// that it does not absorb are split into the connected components of "one
// compacted name is an element-wise prefix of the other"; each component
// seeds a compacted node named by its shortest name, which then absorbs,
// repeatedly, every child of its members whose compacted name starts with
// that name. Time is linear in the tree times the name depth, plus sorting
// each node's children and the handles; t and s are not modified, and s
// must not be modified afterwards (the view refers to it).
func Compact(t *analysis.Tree, s *State, value int) *View {
	g := newGrouping(t, s.index(t), s.lv, t.Total[value])
	n := t.Len()
	g.mem, g.seeds = make([]int32, 0, n), make([]int32, 0, n) // each node is in both once
	// At most one group per seed, plus the root: growing g.gr by appends
	// would copy it several times over.
	g.gr = slices.Grow(g.gr, n+1)
	g.kids = append(g.kids[:0], t.Roots...)
	g.seedChildren(0)
	g.run()
	return g.view(s, value)
}

// group is one compacted node in the making.
type group struct {
	name, up       int32  // compacted name id, parent group (-1, -1 for the virtual root)
	seedLo, seedHi int32  // its seeds are seeds[seedLo:seedHi]
	memLo, memHi   int32  // its members are mem[memLo:memHi], ascending
	kidLo, kidHi   int32  // its child groups are the ids kidLo..kidHi-1
	reuse          int32  // after a step: the old node it equals, or -1
	y              int32  // after a step: the old node it is part of (from), or -1
	r2             int32  // the first member that breaks R2 here, or -1
	size           int32  // call-tree nodes below its seeds: a bound on its work
	tot            int64  // the sum of its seeds' totals
	hash           uint64 // of its name and where it starts (startHash)
}

// grouping is the work space of one Compact (or of the part of one Step
// that changes): groups in creation order, group 0 being the virtual root
// above the groups it seeds; a group's children are created together, so
// they have consecutive ids, larger than their parent's.
type grouping struct {
	t     *analysis.Tree
	ix    *index
	level paged
	total []int64 // per call-tree node, in the view's value type

	gr    []group
	seeds []int32
	mem   []int32

	// After a step: the view before it, and the node stepped on (whose
	// members' levels changed, so it cannot be reused).
	old    *View
	target int32

	// scratch
	kids, comp, count, roots []int32
	stack                    []int32
	mark, slot               []int32 // per compacted name id
	stamp                    int32
	ids                      []int32 // per group: its node's id (splice)
	got                      []delegation
	keys                     []sibling
	moved                    []group // sortGroups'
}

func newGrouping(t *analysis.Tree, ix *index, level paged, total []int64) *grouping {
	g := &grouping{
		t: t, ix: ix, level: level, total: total,
		mark: make([]int32, len(ix.depth)),
		slot: make([]int32, len(ix.depth)),
	}
	g.newGroup(-1, -1)
	return g
}

// groupings recycles the scratch space of the groupings of steps, which a
// chain of steps on one profile would otherwise allocate anew each time
// (the groups alone are several times the step's new nodes).
var groupings sync.Pool

// stepGrouping returns a grouping like newGrouping's, reusing an earlier
// step's scratch space when there is one for a tree of the same names.
func stepGrouping(t *analysis.Tree, ix *index, level paged, total []int64) *grouping {
	g, ok := groupings.Get().(*grouping)
	if !ok || len(g.mark) != len(ix.depth) || g.stamp > 1<<30 {
		return newGrouping(t, ix, level, total)
	}
	g.t, g.ix, g.level, g.total = t, ix, level, total
	g.gr = g.gr[:0]
	g.newGroup(-1, -1)
	return g
}

// release gives g's scratch space back for another step. The groups'
// seeds and members are the new nodes' own, so they are not kept.
func (g *grouping) release() { g.put(nil, nil) }

// put returns g to the pool with the given seeds and members.
func (g *grouping) put(seeds, mem []int32) {
	g.t, g.ix, g.level, g.total, g.old = nil, nil, paged{}, nil, nil
	g.seeds, g.mem = seeds, mem
	groupings.Put(g)
}

// cname returns call-tree node n's compacted name id.
func (g *grouping) cname(n int32) int32 { return g.ix.cname(g.t.Frame[n], g.level.at(n)) }

// run absorbs the members of every group not yet processed and seeds their
// child groups, until no group is left. It goes depth first (a stack of
// groups), which follows the call tree's pre-order and so its memory: the
// result does not depend on the order, but breadth first visits the whole
// tree once per depth, at random.
func (g *grouping) run() {
	stack := g.stack[:0]
	for gi := g.gr[0].kidHi - 1; gi >= g.gr[0].kidLo; gi-- {
		stack = append(stack, gi)
	}
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g.visit(gi) {
			for k := g.gr[gi].kidHi - 1; k >= g.gr[gi].kidLo; k-- {
				stack = append(stack, k)
			}
		}
	}
	g.stack = stack
}

// visit processes group gi: after a step, it may be an old node (reuse,
// known since it was made: see resolve) or the part of one below its seeds
// (derive); otherwise it absorbs its members. It then seeds gi's child
// groups, and reports whether it did (a reused group has no child groups:
// it keeps its old subtree).
func (g *grouping) visit(gi int32) bool {
	gr := &g.gr[gi]
	switch y := gr.y; {
	case gr.reuse >= 0:
		return false
	case y >= 0 && g.old.Nodes[y].r2 < 0:
		g.derive(gi, y)
	default:
		g.absorb(gi)
	}
	gr.hash = startHash(g.ix, g.mem[gr.memLo], g.ix.str[gr.name])
	g.seedChildren(gi)
	return true
}

// resolve notes, after a step, which old node new group gi comes from
// (from): the node it is, with its R2 note and no work left (size 0), or
// the one it is part of.
func (g *grouping) resolve(gi int32) {
	y, same := g.from(gi)
	gr := &g.gr[gi]
	if same {
		gr.reuse, gr.r2, gr.size = y, g.old.Nodes[y].r2, 0
	} else {
		gr.y = y
	}
}

// from returns the old node that all of group gi's seeds belong to, when
// that node is not the target and has gi's name, or -1; and whether its
// seeds are exactly gi's. Such a node's subtree is unchanged by the step: a
// compacted subtree depends only on its seeds and on the levels below them,
// which the step did not touch unless the node is the target. So when the
// seeds are the same, gi is that node, subtree and all; and when they are
// fewer, gi is the part of it below them (see derive).
func (g *grouping) from(gi int32) (int32, bool) {
	seeds := g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi]
	if !slices.IsSorted(seeds) {
		slices.Sort(seeds)
	}
	y := g.old.nodeOf.at(seeds[0])
	if y == g.target {
		return -1, false
	}
	nd := g.old.Nodes[y]
	if nd.name != g.gr[gi].name {
		return -1, false
	}
	if slices.Equal(nd.seeds, seeds) {
		return y, true
	}
	for _, s := range seeds[1:] {
		if g.old.nodeOf.at(s) != y {
			return -1, false
		}
	}
	return y, false
}

// derive sets group gi's members and kids from old node y, whose members
// include gi's seeds and whose name is gi's (from), instead of testing
// names as absorb does. gi absorbs from a seed s exactly what y absorbed
// from s, since the names and levels are the same: y's members in s's call
// subtree (y has no seed there: a node's seeds lie under its parent's
// members, never under its own). So the walk of s's subtree is absorb's,
// with "is the next of those members" for the name test. y breaks no R2
// (the caller checks), so neither does gi.
func (g *grouping) derive(gi, y int32) {
	members, size := g.old.Nodes[y].Members, g.t.Size
	lo := int32(len(g.mem))
	mem, kids := g.mem, g.kids[:0]
	for _, s := range g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi] {
		end := s + size[s]
		a, _ := slices.BinarySearch(members, s)
		b, _ := slices.BinarySearch(members[a:], end)
		in := members[a : a+b] // starts with s
		mem = append(mem, in...)
		j := 1
		for c := s + 1; c < end; {
			if j < len(in) && in[j] == c {
				j++
				c++
			} else {
				kids = append(kids, c)
				c += size[c]
			}
		}
	}
	g.gr[gi].memLo, g.gr[gi].memHi = lo, int32(len(mem))
	g.gr[gi].r2 = -1
	g.mem, g.kids = mem, kids
}

func (g *grouping) newGroup(name, up int32) int32 {
	id := int32(len(g.gr))
	g.gr = append(g.gr, group{name: name, up: up, reuse: -1, r2: -1, y: -1})
	return id
}

// absorb collects group gi's members: its seeds, then every child of a
// member whose compacted name starts with the group's name. The children it
// does not absorb are left in g.kids. Each seed's subtree is read in
// pre-order, skipping the subtrees of the children not absorbed: one
// forward pass over the call tree's arrays, which leaves the members (and
// the kids) ascending, as the seeds' subtrees are disjoint. It notes the
// first member whose compacted name is two or more elements longer than
// the group's (R2), which is read here at no extra cost.
func (g *grouping) absorb(gi int32) {
	t, ix, frame, level, size := g.t, g.ix, g.t.Frame, g.level.pages, g.t.Size
	name := g.gr[gi].name
	d := ix.depth[name]
	seeds := g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi]
	if !slices.IsSorted(seeds) {
		slices.Sort(seeds)
	}
	lo := int32(len(g.mem))
	mem := g.mem
	kids := g.kids[:0]
	r2 := int32(-1)
	for _, s := range seeds {
		mem = append(mem, s)
		if r2 < 0 && ix.depth[g.cname(s)] >= d+2 {
			r2 = s
		}
		for c, end := s+1, s+t.Size[s]; c < end; {
			f := frame[c]
			lc := max(level[c>>pageShift][c&pageMask], 1) // below 1 shows as 1 (uniformLevel)
			if off := ix.off[f]; lc >= d && ix.off[f+1]-off >= d && ix.pre[off+d-1] == name {
				if r2 < 0 && lc >= d+2 && ix.off[f+1]-off >= d+2 {
					r2 = c
				}
				mem = append(mem, c)
				c++
			} else {
				kids = append(kids, c)
				c += size[c]
			}
		}
	}
	g.gr[gi].memLo, g.gr[gi].memHi = lo, int32(len(mem))
	g.gr[gi].r2 = r2
	g.mem, g.kids = mem, kids
}

// components splits nodes into the connected components of the prefix
// relation on their compacted names: a node's component is named by the
// shortest prefix of its compacted name that is some node's compacted name.
// It returns, per node, its component's number (in order of first
// appearance) in g.comp, and the components' names.
func (g *grouping) components(nodes []int32) []int32 {
	ix := g.ix
	g.stamp++
	st := g.stamp
	for _, k := range nodes {
		g.mark[g.cname(k)] = st
	}
	comp := g.comp[:0]
	roots := g.roots[:0]
	for _, k := range nodes {
		c := g.cname(k)
		base := ix.off[g.t.Frame[k]]
		r := c
		for j := int32(0); j < ix.depth[c]; j++ {
			if p := ix.pre[base+j]; g.mark[p] == st || g.mark[p] == -st {
				r = p
				break
			}
		}
		if g.mark[r] == st { // the first node of this component
			g.mark[r] = -st
			g.slot[r] = int32(len(roots))
			roots = append(roots, r)
		}
		comp = append(comp, g.slot[r])
	}
	g.comp, g.roots = comp, roots
	return roots
}

// seedChildren makes one new child group of up per component of g.kids, the
// unabsorbed children of up's members, seeded by the component's nodes,
// with its total; the new groups are in sibling order (sortGroups), and
// after a step, resolved.
func (g *grouping) seedChildren(up int32) {
	first := int32(len(g.gr))
	g.makeChildren(up)
	if g.old != nil {
		for gi := first; gi < int32(len(g.gr)); gi++ {
			g.resolve(gi)
		}
	}
}

func (g *grouping) makeChildren(up int32) {
	kids := g.kids
	first := int32(len(g.gr))
	g.gr[up].kidLo, g.gr[up].kidHi = first, first
	switch len(kids) {
	case 0:
		return
	case 1: // the usual case deep in a tree: one component, named by its node
		gi := g.newGroup(g.cname(kids[0]), up)
		g.gr[gi].seedLo = int32(len(g.seeds))
		g.seeds = append(g.seeds, kids[0])
		g.gr[gi].seedHi = int32(len(g.seeds))
		g.gr[gi].tot, g.gr[gi].size = g.total[kids[0]], g.t.Size[kids[0]]
		g.gr[up].kidHi = gi + 1
		return
	}
	roots := g.components(kids)
	count := append(g.count[:0], make([]int32, len(roots))...)
	for _, c := range g.comp {
		count[c]++
	}
	pos := int32(len(g.seeds))
	for i, r := range roots {
		gi := g.newGroup(r, up)
		g.gr[gi].seedLo, g.gr[gi].seedHi = pos, pos
		pos += count[i]
	}
	g.seeds = append(g.seeds, kids...)
	for i, k := range kids {
		gr := &g.gr[first+g.comp[i]]
		g.seeds[gr.seedHi] = k
		gr.seedHi++
		gr.tot += g.total[k]
		gr.size += g.t.Size[k] // just read by absorb or derive
	}
	g.gr[up].kidHi = int32(len(g.gr))
	g.count = count
	g.sortGroups(g.gr[first:])
}

// sortGroups puts sibling groups in the order of a node's children: by
// descending total, then name (siblings have distinct names). Most groups
// have a few children, sorted in place; longer lists sort small keys and
// then move each group once, as groups are large.
func (g *grouping) sortGroups(gs []group) {
	rank := g.ix.rank // comparing ranks is comparing names
	if len(gs) <= 12 {
		for i := 1; i < len(gs); i++ {
			for j := i; j > 0 && (gs[j].tot > gs[j-1].tot || gs[j].tot == gs[j-1].tot && rank[gs[j].name] < rank[gs[j-1].name]); j-- {
				gs[j], gs[j-1] = gs[j-1], gs[j]
			}
		}
		return
	}
	keys := g.keys[:0]
	for i := range gs {
		keys = append(keys, sibling{gs[i].tot, rank[gs[i].name], int32(i)})
	}
	sortSiblings(keys)
	tmp := append(g.moved[:0], gs...)
	for k, s := range keys {
		gs[k] = tmp[s.id]
	}
	g.keys, g.moved = keys, tmp
}
