package compaction

import "slices"

// recompact computes the view after a step on compacted node c of v, given
// the new state ns, by recomputing only what the step can change. Levels
// changed only for c's members, so only the split of K(P) — the seeds of
// c's parent P's children — can change, and only in the components that
// hold one of c's seeds: c itself, split apart by an expand, or merged with
// siblings by a compact. Every other child of P keeps its seeds, and a
// compacted subtree depends only on its seeds and the names below them, so
// it is kept as it is, under its old id. When one of c's seeds comes to
// start with P's name, P itself would absorb it: recompact then returns
// nil, and the caller recomputes everything. It returns the new view and
// the first violation of R1 or R2 on the nodes it made or re-parented, in
// pre-order, or nil.
func recompact(v *View, ns *State, c int32) (*View, *Violation) {
	p := v.Parent(c)
	g := stepGrouping(v.Tree, ns.ix, ns.lv, v.Tree.Total[v.Value])
	defer g.release()
	if p >= 0 {
		for _, s := range v.Nodes[c].seeds {
			if ns.ix.startsWith(g.cname(s), v.Nodes[p].name) {
				return nil, nil
			}
		}
	}
	sibs := v.Roots
	if p >= 0 {
		sibs = v.Nodes[p].Children
	}
	removed := append(make([]int32, 0, 8), c)
	removed = append(removed, g.joining(v, c, sibs)...)
	var seeds []int32
	for _, x := range removed {
		seeds = append(seeds, v.Nodes[x].seeds...)
	}
	g.old, g.target = v, c
	g.kids = seeds
	g.seedChildren(0)
	g.run()
	return splice(v, ns, p, sibs, removed, g)
}

// joining returns the siblings of c (in sibs) that the step merges with c:
// those whose name is related to the new name of one of c's seeds. Seeds
// of different old siblings were not related, and only c's names changed,
// so no other sibling can join; and every seed name of a sibling x starts
// with x's name, so x joins exactly when its name is related to a new name
// (which never happens on an expand: names only grow).
func (g *grouping) joining(v *View, c int32, sibs []int32) []int32 {
	ix := g.ix
	g.stamp++
	st := g.stamp
	for _, s := range v.Nodes[c].seeds { // mark: new names; slot: them and their prefixes
		n := g.cname(s)
		g.mark[n] = st
		for a := n; a >= 0 && g.slot[a] != st; a = ix.parent[a] {
			g.slot[a] = st
		}
	}
	var out []int32
	for _, x := range sibs {
		if x == c {
			continue
		}
		n := v.Nodes[x].name
		joins := g.slot[n] == st
		for a := n; a >= 0 && !joins; a = ix.parent[a] {
			joins = g.mark[a] == st
		}
		if joins {
			out = append(out, x)
		}
	}
	g.stamp++ // slot is scratch for components too (g is new: no old slot equals st)
	return out
}

// splice builds the view after recompact: v's nodes, less the subtrees of
// the removed children of P but for the nodes g reuses, plus the new nodes
// of g under P. It returns the view and the first violation of R1 or R2 on
// the nodes it made or re-parented, in pre-order, or nil. New nodes get
// ids from len(v.Nodes) on, in the depth-first order of their groups
// (number).
func splice(v *View, ns *State, p int32, sibs, removed []int32, g *grouping) (*View, *Violation) {
	base := int32(len(v.Nodes))
	n := g.number(base, len(v.Nodes))
	nNew := int32(len(n.fresh))
	nv := &View{Tree: v.Tree, Value: v.Value, Before: v.Before, Roots: v.Roots, state: ns}
	nv.Nodes = make([]*Node, int(base+nNew))
	copy(nv.Nodes, v.Nodes)
	var dropped []int32
	for _, x := range removed {
		dropped = v.drop(x, n.reused, dropped)
	}
	for _, i := range dropped {
		nv.Nodes[i] = nil
	}
	nv.hlen = make([]uint8, base+nNew)
	copy(nv.hlen, v.hlen)
	dirty := mergeByHash(v, nv, n.fresh, n.hash, dropped, v.After-len(dropped)+int(nNew))
	nv.handleLengths(dirty)

	// P's children: the old ones kept, and the new top groups, in order.
	var items []sibling // id: an old node kept, or -1 - a new top group
	rank := g.ix.rank
	for _, x := range sibs {
		if !slices.Contains(removed, x) {
			items = append(items, sibling{v.Nodes[x].Total, rank[v.Nodes[x].name], x})
		}
	}
	for gi := g.gr[0].kidLo; gi < g.gr[0].kidHi; gi++ {
		items = append(items, sibling{g.gr[gi].tot, rank[g.gr[gi].name], -1 - gi})
	}
	sortSiblings(items)
	e := newEmitter(nv, g, v.nodeOf.writer(), v.parent.writer(), base, make([]Node, nNew))
	e.ids, e.checking = n.ids, true
	pn := int32(-1)
	if p >= 0 {
		pn = v.Nodes[p].name
	}
	children := make([]int32, len(items))
	for k, it := range items {
		if it.id < 0 {
			children[k] = e.group(-1-it.id, p, pn)
		} else {
			children[k] = it.id
		}
	}
	nv.nodeOf, nv.parent = e.nodeOf.l, e.parent.l
	if p < 0 {
		nv.Roots = children
	} else {
		cp := *v.Nodes[p]
		cp.Children = children
		nv.Nodes[p] = &cp
	}
	nv.After = v.After - len(dropped) + int(nNew)
	return nv, e.x
}

// numbering gives the groups of a step their nodes' ids.
type numbering struct {
	ids    []int32  // per group: its node's id (kept in the grouping's ids)
	fresh  []int32  // the ids of the new nodes, ascending
	hash   []uint64 // their hashes
	reused []uint64 // a bit per old id: the node is reused whole
}

// number walks the groups of g depth first from the virtual root, in
// sibling order, giving each new one the next id from base on, and each
// reused one its old node's id; ids below size are old.
func (g *grouping) number(base int32, size int) *numbering {
	ids := slices.Grow(g.ids[:0], len(g.gr))[:len(g.gr)]
	n := &numbering{reused: make([]uint64, (size+63)/64),
		fresh: make([]int32, 0, len(g.gr)), hash: make([]uint64, 0, len(g.gr))}
	stack := make([]int32, 0, 64)
	for gi := g.gr[0].kidHi - 1; gi >= g.gr[0].kidLo; gi-- {
		stack = append(stack, gi)
	}
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		gr := &g.gr[gi]
		if x := gr.reuse; x >= 0 {
			n.reused[x/64] |= 1 << (x % 64)
			ids[gi] = x
			continue
		}
		ids[gi] = base + int32(len(n.fresh))
		n.fresh, n.hash = append(n.fresh, ids[gi]), append(n.hash, gr.hash)
		for c := gr.kidHi - 1; c >= gr.kidLo; c-- {
			stack = append(stack, c)
		}
	}
	g.ids, n.ids = ids, ids
	return n
}

// drop lists the ids of node x's subtree in v, but for the nodes reused
// marks (which keep their subtrees), and appends them to dropped.
func (v *View) drop(x int32, reused []uint64, dropped []int32) []int32 {
	stack := []int32{x}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reused[j/64]&(1<<(j%64)) != 0 {
			continue
		}
		stack = append(stack, v.Nodes[j].Children...)
		dropped = append(dropped, j)
	}
	return dropped
}

// mergeByHash sets nv.byHash and nv.sorted: v's order for the nodes nv
// keeps, merged with the new nodes' (ids fresh, hashes hash), n in all.
// dropped lists the ids v had and nv does not. It returns the positions whose neighbours changed, where handle
// lengths must be recomputed, ascending and each once. The unchanged runs
// between a dropped node and a new one are copied in bulk.
func mergeByHash(v, nv *View, fresh []int32, hash []uint64, dropped []int32, n int) (dirty []int32) {
	order, fh := sortHashes(hash)
	fj := order
	for k, o := range order {
		fj[k] = fresh[o]
	}
	// Where each dropped node is in v's order, ascending: found in their
	// own (hash, id) order by galloping forward from the last one, which
	// reads v's order in one sweep rather than at random.
	dOrder, dSorted := v.sortHashes(dropped)
	for k := 1; k < len(dSorted); k++ { // dropped is not ascending: equal hashes go by id, as in v's order
		for j := k; j > 0 && dSorted[j] == dSorted[j-1] && dOrder[j] < dOrder[j-1]; j-- {
			dOrder[j], dOrder[j-1] = dOrder[j-1], dOrder[j]
		}
	}
	gone := make([]int, len(dropped))
	for k, q := 0, 0; k < len(gone); k++ {
		q += gallop(v.sorted[q:], v.byHash[q:], dSorted[k], dOrder[k])
		gone[k] = q
		q++
	}
	out, sorted := make([]int32, n), make([]uint64, n)
	// A removed node makes its two neighbours dirty; a new one itself and
	// its two neighbours. Positions are added in ascending runs whose
	// starts never go down, so one past the last added one is new.
	last := int32(-2)
	mark := func(lo, hi int32) {
		for q := max(lo, last+1); q <= hi; q++ {
			dirty = append(dirty, q)
		}
		last = max(last, hi)
	}
	at, q, f, d := 0, 0, 0, 0
	for {
		// The next event: a dropped old node at gone[d], or a new node
		// before old position next.
		next := len(v.byHash)
		if f < len(fh) {
			next = q + gallop(v.sorted[q:], v.byHash[q:], fh[f], fj[f])
		}
		if d < len(gone) && gone[d] < next {
			next = gone[d]
		}
		at += copy(out[at:], v.byHash[q:next])
		copy(sorted[at-(next-q):], v.sorted[q:next])
		q = next
		switch {
		case d < len(gone) && gone[d] == q:
			mark(int32(at)-1, int32(at))
			q++
			d++
		case f < len(fh):
			mark(int32(at)-1, int32(at)+1)
			out[at], sorted[at] = fj[f], fh[f]
			at++
			f++
		default:
			nv.byHash, nv.sorted = out[:at], sorted[:at]
			return dirty
		}
	}
}

// gallop is sortSearch for a pair expected near the start: it doubles a
// bound until it passes (h, i), then searches below it.
func gallop(sorted []uint64, ids []int32, h uint64, i int32) int {
	hi := 1
	for hi < len(sorted) && (sorted[hi-1] < h || sorted[hi-1] == h && ids[hi-1] < i) {
		hi *= 2
	}
	hi = min(hi, len(sorted))
	lo := hi / 2
	return lo + sortSearch(sorted[lo:hi], ids[lo:hi], h, i)
}

// sortSearch returns the number of (hash, id) pairs in sorted, ids that
// come before (h, i).
func sortSearch(sorted []uint64, ids []int32, h uint64, i int32) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] < h || sorted[m] == h && ids[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
