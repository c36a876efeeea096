package compaction

import (
	"math"
	"slices"
	"sync"
)

// recompact computes the view after a step on compacted node c of v, given
// the new state ns, by recomputing only what the step can change. Levels
// changed only for c's members, so only the split of K(P) — the seeds of
// c's parent P's children — can change, and only in the components that
// hold one of c's seeds: c itself, split apart by an expand, or merged with
// siblings by a compact. Every other child of P keeps its seeds, and a
// compacted subtree depends only on its seeds and the names below them, so
// it is copied. When one of c's seeds comes to start with P's name, P itself
// would absorb it: recompact then returns nil, and the caller recomputes
// everything. It returns the new view and the indices of the new nodes
// under P (each with its subtree recomputed).
func recompact(v *View, ns *State, c int32) (*View, []int32) {
	p := v.Nodes[c].Parent
	g := newGrouping(v.Tree, ns.ix, ns.Level)
	if p >= 0 {
		for _, s := range v.seeds[c] {
			if ns.ix.startsWith(g.cname(s), v.name[p]) {
				return nil, nil
			}
		}
	}
	sibs := v.Roots
	if p >= 0 {
		sibs = v.Nodes[p].Children
	}
	var k, from []int32 // K(P), and the sibling each came from
	for _, x := range sibs {
		for _, s := range v.seeds[x] {
			k = append(k, s)
			from = append(from, x)
		}
	}
	roots := g.components(k)
	touched := make([]bool, len(roots))
	for i, x := range from {
		if x == c {
			touched[g.comp[i]] = true
		}
	}
	removed := map[int32]bool{}
	var seeds []int32
	for i, s := range k {
		if touched[g.comp[i]] {
			seeds = append(seeds, s)
			removed[from[i]] = true
		}
	}
	g.old = v
	g.owner = ownerBuf(v.Tree.Len())
	defer releaseOwner(g.owner, v, removed)
	for x := range removed {
		for j, end := x, v.end(x); j < end; j++ {
			if j != c {
				for _, s := range v.seeds[j] {
					g.owner[s] = j + 1
				}
			}
		}
	}
	g.kids = seeds
	g.seedChildren(0)
	g.run()
	return splice(v, ns, p, removed, g)
}

// owners recycles the per-call-tree-node owner tables of recompact, which
// are as long as the tree: zeroing and collecting one per step would cost
// more than the rest of a small step.
var owners sync.Pool

func ownerBuf(n int) []int32 {
	if b, ok := owners.Get().(*[]int32); ok && len(*b) == n {
		return *b
	}
	return make([]int32, n)
}

// releaseOwner clears the entries recompact set and returns b to the pool.
func releaseOwner(b []int32, v *View, removed map[int32]bool) {
	for x := range removed {
		for j, end := x, v.end(x); j < end; j++ {
			for _, s := range v.seeds[j] {
				b[s] = 0
			}
		}
	}
	owners.Put(&b)
}

// splice builds the view after recompact: v's nodes with the subtrees of
// the removed children of p replaced by the groups of g, P's children
// re-sorted, indices shifted, handles updated. It returns the view and the
// nodes R1 and R2 must be checked at.
func splice(v *View, ns *State, p int32, removed map[int32]bool, g *grouping) (*View, []int32) {
	tot, kids, size := g.order(v.Value)
	start, end := int32(0), int32(len(v.Nodes))
	if p >= 0 {
		start, end = p+1, v.end(p)
	}
	items, newN := v.items(p, end, removed, g, tot, kids, size)
	remap, at := v.remap(start, end, items)
	nv := newView(v, ns, v.Value, int(newN))
	v.copyInto(nv, remap, p, at)
	e := &emitter{v: nv, g: g, tot: tot, kids: kids, size: size, remap: remap}
	for k, it := range items {
		if it.grp >= 0 {
			e.group(it.grp, at[k], p)
		}
	}
	e.hashFresh()
	nv.handles(mergeByHash(v, nv, remap, e.fresh))
	return nv, toCheck(nv, e.fresh)
}

// item is a child of P after a step: an old node kept (old >= 0) or a
// new group (grp >= 0), with the size of its subtree.
type item struct {
	old, grp, size int32
}

// items returns P's children after the step in view order, and the size of
// the new view. end is the index after P's subtree.
func (v *View) items(p, end int32, removed map[int32]bool, g *grouping, tot []int64, kids, size []int32) ([]item, int32) {
	sibs := v.Roots
	if p >= 0 {
		sibs = v.Nodes[p].Children
	}
	var items []item
	newN := int32(len(v.Nodes))
	for i, x := range sibs {
		next := end
		if i+1 < len(sibs) {
			next = sibs[i+1]
		}
		if removed[x] {
			newN -= next - x
		} else {
			items = append(items, item{old: x, grp: -1, size: next - x})
		}
	}
	for _, gi := range kids[g.gr[0].kidLo:g.gr[0].kidHi] {
		items = append(items, item{old: -1, grp: gi, size: size[gi]})
		newN += size[gi]
	}
	str := g.ix.str
	slices.SortFunc(items, func(a, b item) int {
		ta, na := v.itemKey(a.old, a.grp, tot, g)
		tb, nb := v.itemKey(b.old, b.grp, tot, g)
		return byTotalName(ta, tb, str[na], str[nb])
	})
	return items, newN
}

// remap returns where each old node goes (-1: removed, or copied later with
// a reused block) and where each item starts. P's subtree is [start-1, end).
func (v *View) remap(start, end int32, items []item) (remap, at []int32) {
	n := int32(len(v.Nodes))
	remap = make([]int32, n)
	for j := range remap {
		remap[j] = -1
	}
	for j := int32(0); j < start; j++ {
		remap[j] = j
	}
	pos := start
	at = make([]int32, len(items))
	for k, it := range items {
		at[k] = pos
		if it.old >= 0 {
			for j := int32(0); j < it.size; j++ {
				remap[it.old+j] = pos + j
			}
		}
		pos += it.size
	}
	for j := end; j < n; j++ {
		remap[j] = j + pos - end
	}
	return remap, at
}

// toCheck returns the new nodes and the top of every copied block under one
// (its parent's name changed, so R1 may fail there), ascending.
func toCheck(nv *View, fresh []int32) []int32 {
	isNew := make([]bool, len(nv.Nodes))
	for _, j := range fresh {
		isNew[j] = true
	}
	check := slices.Clone(fresh)
	for _, j := range fresh {
		for _, c := range nv.Nodes[j].Children {
			if !isNew[c] {
				check = append(check, c)
			}
		}
	}
	slices.Sort(check)
	return check
}

// itemKey returns the total and name id of a child of P, old or new.
func (v *View) itemKey(old, grp int32, tot []int64, g *grouping) (int64, int32) {
	if old >= 0 {
		return v.Nodes[old].Total, v.name[old]
	}
	return tot[grp], g.gr[grp].name
}

// copyInto copies the nodes of v that remap keeps into nv, re-indexing
// parents and children; P's children (the roots when p is -1) are the items
// starting at at.
func (v *View) copyInto(nv *View, remap []int32, p int32, at []int32) {
	kidBuf := make([]int32, 0, len(nv.Nodes))
	n := len(remap)
	for j := 0; j < n; {
		r := remap[j]
		if r < 0 {
			j++
			continue
		}
		k := j + 1 // remap is a constant shift on runs: copy each in bulk
		for k < n && remap[k] == r+int32(k-j) {
			k++
		}
		end := int(r) + k - j
		copy(nv.Nodes[r:end], v.Nodes[j:k])
		copy(nv.name[r:end], v.name[j:k])
		copy(nv.seeds[r:end], v.seeds[j:k])
		copy(nv.hash[r:end], v.hash[j:k])
		copy(nv.hlen[r:end], v.hlen[j:k])
		kidBuf = reindex(nv.Nodes[r:end], int32(j), remap, p, at, kidBuf)
		j = k
	}
	if p < 0 {
		nv.Roots = at
		return
	}
	nv.Roots = make([]int32, len(v.Roots))
	for k, r := range v.Roots {
		nv.Roots[k] = remap[r]
	}
}

// reindex re-indexes parents and children of nodes, the old nodes from
// index j on, copied as one run (remap shifts them all by the same amount,
// so indices inside the run need no lookup). Children lists that change are
// written into kidBuf, which it returns; unchanged ones are shared.
func reindex(nodes []Node, j int32, remap []int32, p int32, at, kidBuf []int32) []int32 {
	k := j + int32(len(nodes))
	d := remap[j] - j
	for i := range nodes {
		nd := &nodes[i]
		if nd.Parent >= j {
			nd.Parent += d
		} else if nd.Parent >= 0 {
			nd.Parent = remap[nd.Parent]
		}
		kids := nd.Children
		switch {
		case j+int32(i) == p:
			nd.Children = at
		case len(kids) == 0:
		case kids[0] >= j && kids[len(kids)-1] < k: // ascending: all in the run
			if d != 0 {
				lo := len(kidBuf)
				for _, c := range kids {
					kidBuf = append(kidBuf, c+d)
				}
				nd.Children = kidBuf[lo:len(kidBuf):len(kidBuf)]
			}
		case moved(kids, remap):
			lo := len(kidBuf)
			for _, c := range kids {
				kidBuf = append(kidBuf, remap[c])
			}
			nd.Children = kidBuf[lo:len(kidBuf):len(kidBuf)]
		}
	}
	return kidBuf
}

// moved reports whether remap moves any of kids; unmoved children lists
// are shared with the old view.
func moved(kids, remap []int32) bool {
	for _, c := range kids {
		if remap[c] != c {
			return true
		}
	}
	return false
}

// mergeByHash sets nv.byHash and nv.sorted: v's order for the nodes it
// keeps (remap is monotonic on them), merged with the new subtrees'. It
// returns the positions whose neighbours changed, where handle lengths must
// be recomputed.
func mergeByHash(v, nv *View, remap []int32, fresh []int32) (dirty []int32) {
	fh, fj := freshByHash(nv, fresh)
	n := len(nv.Nodes)
	out, sorted := make([]int32, 0, n), make([]uint64, 0, n)
	// A removed node makes its two neighbours dirty; a new one itself and
	// its two neighbours. handles ignores duplicates and positions past the end.
	f := 0
	insert := func(h uint64, r int32) { // the new nodes before (h, r)
		for ; f < len(fh) && (fh[f] < h || fh[f] == h && fj[f] < r); f++ {
			dirty = append(dirty, int32(len(out))-1, int32(len(out)), int32(len(out))+1)
			out, sorted = append(out, fj[f]), append(sorted, fh[f])
		}
	}
	var rs [256]int32 // remap is read in chunks: independent loads overlap
	for base := 0; base < len(v.byHash); base += len(rs) {
		chunk := v.byHash[base:min(base+len(rs), len(v.byHash))]
		for q, i := range chunk {
			rs[q] = remap[i]
		}
		for q, r := range rs[:len(chunk)] {
			if r < 0 {
				dirty = append(dirty, int32(len(out))-1, int32(len(out)))
				continue
			}
			h := v.sorted[base+q]
			if f < len(fh) && fh[f] <= h {
				insert(h, r)
			}
			out, sorted = append(out, r), append(sorted, h)
		}
	}
	insert(math.MaxUint64, math.MaxInt32)
	nv.byHash, nv.sorted = out, sorted
	return dirty
}

// freshByHash returns the hashes of the new nodes and the nodes, sorted by
// hash, ties by index.
func freshByHash(nv *View, fresh []int32) ([]uint64, []int32) {
	hs := make([]uint64, len(fresh))
	for k, j := range fresh {
		hs[k] = nv.hash[j]
	}
	order, fh := sortHashes(hs) // ties stay by index
	fj := make([]int32, len(order))
	for k, o := range order {
		fj[k] = fresh[o]
	}
	return fh, fj
}

// end returns the index after node i's subtree: the next sibling of i or
// of its nearest ancestor that has one. Time is the depth times the log of
// the number of siblings.
func (v *View) end(i int32) int32 {
	for x := i; x >= 0; x = v.Nodes[x].Parent {
		sibs := v.Roots
		if p := v.Nodes[x].Parent; p >= 0 {
			sibs = v.Nodes[p].Children
		}
		if k, _ := slices.BinarySearch(sibs, x); k+1 < len(sibs) {
			return sibs[k+1]
		}
	}
	return int32(len(v.Nodes))
}
