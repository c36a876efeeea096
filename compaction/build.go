package compaction

import (
	"cmp"
	"slices"
)

// order computes, for the groups of g, their totals (the sum of their
// seeds' totals) and each group's child groups sorted by descending total
// then name (kids[kidLo:kidHi] of the returned slice).
func (g *grouping) order(value int) (tot []int64, kids []int32) {
	ng := len(g.gr)
	total := g.t.Total[value]
	tot = g.tot[:0]
	if cap(tot) < ng {
		tot = make([]int64, ng)
	}
	tot = tot[:ng]
	tot[0] = 0 // the virtual root's
	for gi := 1; gi < ng; gi++ {
		var sum int64
		for _, s := range g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi] {
			sum += total[s]
		}
		tot[gi] = sum
	}
	kids = slices.Grow(g.sorted[:0], ng)
	for i := range ng {
		kids = append(kids, int32(i))
	}
	rank := g.ix.rank // comparing ranks is comparing names
	less := func(a, b int32) bool {
		return tot[a] > tot[b] || tot[a] == tot[b] && rank[g.gr[a].name] < rank[g.gr[b].name]
	}
	var keys []sibling
	for gi := 0; gi < ng; gi++ {
		k := kids[g.gr[gi].kidLo:g.gr[gi].kidHi]
		switch {
		case len(k) < 2:
		case len(k) <= 12: // most groups have a few children: sort them in place
			for i := 1; i < len(k); i++ {
				for j := i; j > 0 && less(k[j], k[j-1]); j-- {
					k[j], k[j-1] = k[j-1], k[j]
				}
			}
		default:
			keys = keys[:0]
			for _, c := range k {
				keys = append(keys, sibling{tot[c], rank[g.gr[c].name], c})
			}
			sortSiblings(keys)
			for j, s := range keys {
				k[j] = s.id
			}
		}
	}
	g.tot, g.sorted = tot, kids
	return tot, kids
}

// sibling is a sort key of a node among its siblings.
type sibling struct {
	tot  int64
	rank int32 // of its name (index.rank)
	id   int32
}

// sortSiblings sorts by descending total, then ascending name.
func sortSiblings(s []sibling) {
	slices.SortFunc(s, func(a, b sibling) int {
		return cmp.Or(cmp.Compare(b.tot, a.tot), cmp.Compare(a.rank, b.rank))
	})
}

// emitter writes the groups of a grouping as nodes of a view under
// construction, giving new nodes the ids in ids (per group), or when ids is
// nil consecutive ids in pre-order.
type emitter struct {
	ids    []int32
	v      *View
	g      *grouping
	tot    []int64
	kids   []int32
	nodeOf *writer // the view's nodeOf, being written (nil: written elsewhere)
	parent *writer // the view's parents, being written
	batch  []Node  // the new nodes, in id order from base
	base   int32   // id of batch[0]
	kidBuf []int32 // holds the new nodes' children lists
	fresh  []int32 // ids of the new nodes, in pre-order
	check  []int32 // the new nodes and the reused ones given a new parent, in pre-order: where R1 and R2 can fail
}

// newEmitter prepares to write the groups of g into v, new nodes into batch
// from id base on, with v's call-tree→node table and parents written by
// nodeOf and parent.
func newEmitter(v *View, g *grouping, nodeOf, parent *writer, tot []int64, kids []int32, base int32, batch []Node) *emitter {
	n := len(batch)
	parent.grow(int(base) + n)
	return &emitter{v: v, g: g, nodeOf: nodeOf, parent: parent, tot: tot, kids: kids, base: base,
		batch: batch, kidBuf: make([]int32, 0, n)}
}

// group writes group gi's subtree under parent node up, in pre-order, and
// returns its id. A group that reuses an old node is that node, subtree and
// all, under up.
func (e *emitter) group(gi, up int32) int32 {
	g, v := e.g, e.v
	if x := g.gr[gi].reuse; x >= 0 {
		if up >= e.base || e.parent.l.at(x) != up { // under a new node, its parent is new
			e.parent.set(x, up)
			e.check = append(e.check, x)
		}
		return x
	}
	var id int32
	if e.ids != nil {
		id = e.ids[gi]
	} else {
		id = e.base + int32(len(e.fresh))
		e.fresh = append(e.fresh, id)
	}
	e.check = append(e.check, id)
	nd := &e.batch[id-e.base]
	v.Nodes[id] = nd
	name := g.gr[gi].name
	nd.name, nd.Name, nd.r2 = name, g.ix.str[name], g.gr[gi].r2
	e.parent.set(id, up)
	nd.Total, nd.Self = e.tot[gi], e.tot[gi]
	nd.seeds = g.seeds[g.gr[gi].seedLo:g.gr[gi].seedHi:g.gr[gi].seedHi]
	nd.Members = g.mem[g.gr[gi].memLo:g.gr[gi].memHi:g.gr[gi].memHi] // ascending (absorb)
	if e.nodeOf != nil {
		e.nodeOf.setAll(nd.Members, id)
	}
	ks := e.kids[g.gr[gi].kidLo:g.gr[gi].kidHi]
	if len(ks) == 0 {
		return id
	}
	lo := len(e.kidBuf)
	e.kidBuf = slices.Grow(e.kidBuf, len(ks))[:lo+len(ks)]
	children := e.kidBuf[lo : lo+len(ks) : lo+len(ks)]
	nd.Children = children
	for j, k := range ks {
		children[j] = e.group(k, id)
		nd.Self -= e.tot[k]
	}
	return id
}

// hashFresh sets the hash of the new nodes (see hashStarts).
func (e *emitter) hashFresh() {
	nodes, f := e.v.Nodes, e.fresh
	hashStarts(e.g.ix, len(f),
		func(k int) (int32, string) { nd := nodes[f[k]]; return nd.Members[0], nd.Name },
		func(k int, h uint64) { nodes[f[k]].hash = h })
}

// hashStarts computes the hashes handles are cut from, for n nodes: of a
// node's name and of where it starts in the call tree, the full path of
// its first seed (a node's smallest member is a seed, as members descend
// from seeds and ids are in pre-order). node(k) gives the kth node's first
// seed and name, and set(k, h) takes its hash. The nodes are independent,
// so they are hashed four at a time (FNV-1a is latency bound).
func hashStarts(ix *index, n int, node func(k int) (int32, string), set func(k int, h uint64)) {
	k := 0
	for ; k+4 <= n; k += 4 {
		var h [4]uint64
		var s [4]string
		for j := range 4 {
			first, name := node(k + j)
			h[j], s[j] = fnvAdd(ix.path[first], '|'), name
		}
		fnvString4(&h, &s)
		for j := range 4 {
			set(k+j, mix(h[j]))
		}
	}
	for ; k < n; k++ {
		first, name := node(k)
		set(k, mix(fnvString(fnvAdd(ix.path[first], '|'), name)))
	}
}

// view turns all the groups of g into a View, ids in pre-order.
func (g *grouping) view(s *State, value int) *View {
	tot, kids := g.order(value)
	n := int32(len(g.gr) - 1)
	v := &View{Tree: g.t, Value: value, Before: g.t.Len(), After: int(n), Nodes: make([]*Node, n), hlen: make([]uint8, n), state: s}
	e := newEmitter(v, g, freshWriter(g.t.Len()), freshWriter(int(n)), tot, kids, 0, make([]Node, n))
	e.fresh = make([]int32, 0, n)
	top := kids[g.gr[0].kidLo:g.gr[0].kidHi]
	v.Roots = make([]int32, len(top))
	for k, gi := range top {
		v.Roots[k] = e.group(gi, -1)
	}
	v.nodeOf, v.parent = e.nodeOf.l, e.parent.l
	e.hashFresh()
	v.byHash, v.sorted = v.sortHashes(e.fresh)
	v.allHandles()
	return v
}
