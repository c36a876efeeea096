package compaction

import (
	"cmp"
	"slices"
)

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
// construction, giving new nodes the ids in ids (per worker, per group), or
// when ids is nil consecutive ids in pre-order.
type emitter struct {
	ids    [2][]int32 // per worker of k, per group
	v      *View
	k      *workers
	nodeOf *writer // the view's nodeOf, being written
	parent *writer // the view's parents, being written
	batch  []Node  // the new nodes, in id order from base
	base   int32   // id of batch[0]
	kidBuf []int32 // holds the new nodes' children lists
	fresh  []int32 // ids of the new nodes, in pre-order

	// After a step: the first violation of R1 or R2, in pre-order, among
	// the nodes made and the old ones moved under a new parent.
	checking bool
	x        *Violation
}

// newEmitter prepares to write the groups of g into v, new nodes into batch
// from id base on, with v's call-tree→node table and parents written by
// nodeOf and parent.
func newEmitter(v *View, k *workers, nodeOf, parent *writer, base int32, batch []Node) *emitter {
	n := len(batch)
	parent.grow(int(base) + n)
	return &emitter{v: v, k: k, nodeOf: nodeOf, parent: parent, base: base,
		batch: batch, kidBuf: make([]int32, 0, n)}
}

// group writes the subtree of group gi of worker w under parent node up,
// named upName (-1 for none), in pre-order, and returns its id. A group
// that reuses an old node is that node, subtree and all, under up.
func (e *emitter) group(w int, gi, up, upName int32) int32 {
	w, gi = e.k.at(w, gi)
	g, v := e.k.ws[w], e.v
	gr := &g.gr[gi]
	if x := gr.reuse; x >= 0 {
		if up >= e.base || e.parent.l.at(x) != up { // under a new node, its parent is new
			e.parent.set(x, up)
			if e.checking && e.x == nil {
				e.x = v.violation(x, up, gr.name, upName, gr.r2, v.Nodes[x].seeds)
			}
		}
		return x
	}
	var id int32
	if e.ids[0] != nil {
		id = e.ids[w][gi]
	} else {
		id = e.base + int32(len(e.fresh))
		e.fresh = append(e.fresh, id)
	}
	if e.checking && e.x == nil {
		e.x = v.violation(id, up, gr.name, upName, gr.r2, g.seeds[gr.seedLo:gr.seedHi])
	}
	nd := &e.batch[id-e.base]
	v.Nodes[id] = nd
	nd.name, nd.Name, nd.r2, nd.hash = gr.name, g.ix.str[gr.name], gr.r2, gr.hash
	e.parent.set(id, up)
	nd.Total, nd.Self = gr.tot, gr.tot
	nd.seeds = g.seeds[gr.seedLo:gr.seedHi:gr.seedHi]
	nd.Members = g.mem[gr.memLo:gr.memHi:gr.memHi] // ascending (absorb)
	e.nodeOf.setAll(nd.Members, id)
	n := gr.kidHi - gr.kidLo
	if n == 0 {
		return id
	}
	lo := len(e.kidBuf)
	e.kidBuf = slices.Grow(e.kidBuf, int(n))[:lo+int(n)]
	children := e.kidBuf[lo : lo+int(n) : lo+int(n)]
	nd.Children = children
	for j, k := 0, gr.kidLo; k < gr.kidHi; j, k = j+1, k+1 {
		children[j] = e.group(w, k, id, nd.name)
		nd.Self -= g.gr[k].tot
	}
	return id
}

// startHash is the hash a node's handle is cut from: of its name and of
// where it starts in the call tree, the full path of its first seed (a
// node's smallest member is a seed, as members descend from seeds and ids
// are in pre-order).
func startHash(ix *index, first int32, name string) uint64 {
	return mix(fnvString(fnvAdd(ix.path[first], '|'), name))
}

// view turns all the groups of g into a View, ids in pre-order.
func (g *grouping) view(s *State, value int) *View {
	n := int32(len(g.gr) - 1)
	v := &View{Tree: g.t, Value: value, Before: g.t.Len(), After: int(n), Nodes: make([]*Node, n), hlen: make([]uint8, n), state: s}
	e := newEmitter(v, &workers{ws: [2]*grouping{g, nil}}, freshWriter(g.t.Len()), freshWriter(int(n)), 0, make([]Node, n))
	e.fresh = make([]int32, 0, n)
	v.Roots = make([]int32, 0, g.gr[0].kidHi-g.gr[0].kidLo)
	for gi := g.gr[0].kidLo; gi < g.gr[0].kidHi; gi++ {
		v.Roots = append(v.Roots, e.group(0, gi, -1, -1))
	}
	v.nodeOf, v.parent = e.nodeOf.l, e.parent.l
	v.byHash, v.sorted = v.sortHashes(e.fresh)
	v.allHandles()
	return v
}
