package compaction

import (
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
// each node's children; t and s are not modified.
func Compact(t *analysis.Tree, s *State, value int) *View {
	ix := s.index(t)
	g := newGrouping(t, ix)
	g.names(s.Level)
	g.run(0)
	v := g.view(value)
	v.state = s
	return v
}

// grouping is the work space of one Compact: groups in creation (breadth
// first) order, group 0 being the virtual root.
type grouping struct {
	t  *analysis.Tree
	ix *index
	cn []int32 // per call-tree node: compacted name id

	grp    []int32 // per call-tree node: group id
	gName  []int32 // per group: compacted name id (-1 for the virtual root)
	gUp    []int32 // per group: parent group (-1 for the virtual root)
	seedLo []int32 // per group: its seeds are seeds[seedLo:seedHi]
	seedHi []int32
	kidLo  []int32 // per group: its child groups are the ids kidLo..kidHi-1
	kidHi  []int32
	seeds  []int32

	// scratch
	mem, kids, local, count []int32
	mark, slot              []int32 // per compacted name id
	stamp                   int32
}

func newGrouping(t *analysis.Tree, ix *index) *grouping {
	n := t.Len()
	return &grouping{
		t: t, ix: ix,
		cn:   make([]int32, n),
		grp:  make([]int32, n),
		mark: make([]int32, len(ix.depth)),
		slot: make([]int32, len(ix.depth)),
	}
}

// names computes every node's compacted name id: the walk that every view
// needs, and the floor of Compact's cost.
func (g *grouping) names(level []int32) {
	ix, frame, cn := g.ix, g.t.Frame, g.cn
	for v, f := range frame {
		cn[v] = ix.cname(f, level[v])
	}
}

// run computes the groups of the subtree of the view below group `from`
// (0: everything). Groups are numbered breadth first.
func (g *grouping) run(from int32) {
	if from == 0 {
		g.newGroup(-1, -1)
		g.kids = append(g.kids[:0], g.t.Roots...)
		g.seedChildren(0)
	}
	for gi := from + 1; gi < int32(len(g.gName)); gi++ {
		g.absorb(gi)
		g.seedChildren(gi)
	}
}

func (g *grouping) newGroup(name, up int32) int32 {
	id := int32(len(g.gName))
	g.gName = append(g.gName, name)
	g.gUp = append(g.gUp, up)
	g.seedLo = append(g.seedLo, 0)
	g.seedHi = append(g.seedHi, 0)
	g.kidLo = append(g.kidLo, 0)
	g.kidHi = append(g.kidHi, 0)
	return id
}

// absorb collects group gi's members: its seeds, then every child of a
// member whose compacted name starts with the group's name. The children it
// does not absorb are left in g.kids.
func (g *grouping) absorb(gi int32) {
	t, ix, cn, grp := g.t, g.ix, g.cn, g.grp
	name := g.gName[gi]
	d := ix.depth[name]
	mem := append(g.mem[:0], g.seeds[g.seedLo[gi]:g.seedHi[gi]]...)
	kids := g.kids[:0]
	for i := 0; i < len(mem); i++ {
		m := mem[i]
		grp[m] = gi
		end := m + t.Size[m]
		for c := m + 1; c < end; c += t.Size[c] {
			if cc := cn[c]; cc == name || (ix.depth[cc] > d && ix.pre[ix.off[t.Frame[c]]+d-1] == name) {
				mem = append(mem, c)
			} else {
				kids = append(kids, c)
			}
		}
	}
	g.mem, g.kids = mem, kids
}

// seedChildren splits g.kids, the unabsorbed children of group up's members,
// into components of the prefix relation and makes one new group per
// component, seeded by its nodes. A component is the set of nodes whose
// shortest compacted-name prefix present among the kids is the same.
func (g *grouping) seedChildren(up int32) {
	kids := g.kids
	g.kidLo[up] = int32(len(g.gName))
	if len(kids) == 0 {
		g.kidHi[up] = g.kidLo[up]
		return
	}
	ix, cn := g.ix, g.cn
	g.stamp++
	st := g.stamp
	for _, k := range kids {
		g.mark[cn[k]] = st
	}
	local := g.local[:0]
	count := g.count[:0]
	for _, k := range kids {
		c := cn[k]
		base := ix.off[g.t.Frame[k]]
		r := c
		for j := int32(0); j < ix.depth[c]; j++ {
			if p := ix.pre[base+j]; g.mark[p] == st || g.mark[p] == -st {
				r = p
				break
			}
		}
		if g.mark[r] == st { // first time this root is seen
			g.mark[r] = -st
			g.slot[r] = int32(len(count))
			count = append(count, 0)
			g.newGroup(r, up)
		}
		local = append(local, g.slot[r])
		count[g.slot[r]]++
	}
	// A root's mark was flipped to -st; other marks stay st, which never
	// matters again since the stamp moves on.
	base := int32(len(g.seeds))
	first := g.kidLo[up]
	pos := base
	for i, c := range count {
		gi := first + int32(i)
		g.seedLo[gi], g.seedHi[gi] = pos, pos
		pos += c
	}
	g.seeds = append(g.seeds, make([]int32, len(kids))...)
	for i, k := range kids {
		gi := first + local[i]
		g.seeds[g.seedHi[gi]] = k
		g.seedHi[gi]++
	}
	g.kidHi[up] = int32(len(g.gName))
	g.local, g.count = local, count
}
