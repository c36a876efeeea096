package compaction

import (
	"slices"
	"strings"
)

// order computes, for the groups of g, their totals (the sum of their
// seeds' totals), each group's child groups sorted by descending total then
// name (kids[kidLo:kidHi] of the returned slice), and each group's number
// of groups in its subtree.
func (g *grouping) order(value int) (tot []int64, kids []int32, size []int32) {
	ng := len(g.gr)
	total := g.t.Total[value]
	tot = make([]int64, ng)
	for gi := 1; gi < ng; gi++ {
		for _, s := range g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi] {
			tot[gi] += total[s]
		}
	}
	kids = make([]int32, ng)
	for i := range kids {
		kids[i] = int32(i)
	}
	str := g.ix.str
	for gi := 0; gi < ng; gi++ {
		if k := kids[g.gr[gi].kidLo:g.gr[gi].kidHi]; len(k) > 1 {
			slices.SortFunc(k, func(a, b int32) int {
				return byTotalName(tot[a], tot[b], str[g.gr[a].name], str[g.gr[b].name])
			})
		}
	}
	size = make([]int32, ng)
	for gi := ng - 1; gi >= 0; gi-- { // children have larger ids
		size[gi]++
		if x := g.gr[gi].reuse; x >= 0 {
			size[gi] = g.old.subtree(x) // a scan of the block copyBlock reads next
		}
		if up := g.gr[gi].up; up >= 0 {
			size[up] += size[gi]
		}
	}
	return tot, kids, size
}

// byTotalName orders siblings: descending total, then ascending name.
func byTotalName(ta, tb int64, na, nb string) int {
	switch {
	case ta > tb:
		return -1
	case ta < tb:
		return 1
	}
	return strings.Compare(na, nb)
}

// emitter writes compacted nodes into a view under construction.
type emitter struct {
	v      *View
	g      *grouping
	tot    []int64
	kids   []int32
	size   []int32
	kidBuf []int32
	fresh  []int32 // the nodes written from groups (not copied from g.old)
	remap  []int32 // after a step: old node index -> new, for copied blocks
}

// group writes group gi's subtree in pre-order at index at, under parent
// node up, and returns the index after it. Members are sorted here. A group
// that reuses an old node is written as a copy of the old node's subtree.
func (e *emitter) group(gi, at, up int32) int32 {
	g, v := e.g, e.v
	if x := g.gr[gi].reuse; x >= 0 {
		return e.copyBlock(x, x+e.size[gi], at, up)
	}
	e.fresh = append(e.fresh, at)
	nd := &v.Nodes[at]
	name := g.gr[gi].name
	nd.Name = g.ix.str[name]
	nd.Parent = up
	nd.Total, nd.Self = e.tot[gi], e.tot[gi]
	if up >= 0 {
		nd.Depth = v.Nodes[up].Depth + 1
	}
	seeds := g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi:g.gr[gi].seedHi]
	v.name[at] = name
	v.seeds[at] = seeds
	nd.Members = g.mem[g.gr[gi].memLo:g.gr[gi].memHi:g.gr[gi].memHi]
	slices.Sort(nd.Members)
	lo := len(e.kidBuf)
	next := at + 1
	for _, k := range e.kids[g.gr[gi].kidLo:g.gr[gi].kidHi] {
		e.kidBuf = append(e.kidBuf, next)
		nd.Self -= e.tot[k]
		next += e.size[k]
	}
	nd.Children = e.kidBuf[lo:len(e.kidBuf):len(e.kidBuf)]
	next = at + 1
	for _, k := range e.kids[g.gr[gi].kidLo:g.gr[gi].kidHi] {
		next = e.group(k, next, at)
	}
	return next
}

// copyBlock writes old node x's subtree, which ends before old node end,
// at index at under parent up, shifting indices and depths, and returns the
// index after it.
func (e *emitter) copyBlock(x, end, at, up int32) int32 {
	old, v := e.g.old, e.v
	depth := int32(0)
	if up >= 0 {
		depth = v.Nodes[up].Depth + 1
	}
	shift, dshift := at-x, depth-old.Nodes[x].Depth
	for j := x; j < end; j++ {
		r := j + shift
		nd := old.Nodes[j]
		nd.Depth += dshift
		if j == x {
			nd.Parent = up
		} else {
			nd.Parent += shift
		}
		if len(nd.Children) > 0 {
			lo := len(e.kidBuf)
			for _, c := range nd.Children {
				e.kidBuf = append(e.kidBuf, c+shift)
			}
			nd.Children = e.kidBuf[lo:len(e.kidBuf):len(e.kidBuf)]
		}
		v.Nodes[r] = nd
		v.name[r], v.seeds[r], v.hash[r], v.hlen[r] = old.name[j], old.seeds[j], old.hash[j], old.hlen[j]
		e.remap[j] = r
	}
	return end + shift
}

// hashFresh sets v.hash for the nodes e wrote from groups: the hash a
// handle is cut from, of the node's name and where it starts in the call
// tree (the full path of its first seed). The nodes are independent, so
// they are hashed four at a time (FNV-1a is latency bound).
func (e *emitter) hashFresh() {
	v, ix := e.v, e.g.ix
	start := func(i int32) uint64 { return fnvAdd(ix.path[slices.Min(v.seeds[i])], '|') }
	f := e.fresh
	for ; len(f) >= 4; f = f[4:] {
		var h [4]uint64
		var s [4]string
		for k, i := range f[:4] {
			h[k], s[k] = start(i), v.Nodes[i].Name
		}
		fnvString4(&h, &s)
		for k, i := range f[:4] {
			v.hash[i] = mix(h[k])
		}
	}
	for _, i := range f {
		v.hash[i] = mix(fnvString(start(i), v.Nodes[i].Name))
	}
}

// newView allocates a view of n nodes.
func newView(ov *View, s *State, value, n int) *View {
	return &View{
		Tree: ov.Tree, Value: value, Before: ov.Tree.Len(), After: n,
		Nodes: make([]Node, n),
		name:  make([]int32, n), seeds: make([][]int32, n), hash: make([]uint64, n), hlen: make([]uint8, n),
		state: s,
	}
}

// view turns all the groups of g into a View.
func (g *grouping) view(s *State, value int) *View {
	tot, kids, size := g.order(value)
	v := newView(&View{Tree: g.t}, s, value, int(size[0]-1))
	e := &emitter{v: v, g: g, tot: tot, kids: kids, size: size,
		kidBuf: make([]int32, 0, len(v.Nodes)), fresh: make([]int32, 0, len(v.Nodes))}
	at := int32(0)
	for _, k := range kids[g.gr[0].kidLo:g.gr[0].kidHi] {
		v.Roots = append(v.Roots, at)
		at = e.group(k, at, -1)
	}
	e.hashFresh()
	v.byHash, v.sorted = sortHashes(v.hash)
	v.handles(nil)
	return v
}
