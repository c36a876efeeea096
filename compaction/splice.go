package compaction

import "slices"

// splice builds the view after a step from the view before it and the
// groups r made under P (p, -1 for the roots) in place of P's children
// removed: the old view less the subtrees of removed, but for the old nodes
// r reuses, plus r's new nodes, whose ids follow the old ones. The old
// view's nodes, tables and pages are shared, not copied, but for P, whose
// children change. It returns the view and the first violation of R1 or R2
// in pre-order among the new nodes and the old ones under a new parent, or
// nil.
func (r *regroup) splice(p int32, removed []int32) (*View, *Violation) {
	old := r.old
	nv := &View{Tree: old.Tree, Value: old.Value, Before: old.Before, Roots: old.Roots, state: r.s}
	base := int32(len(old.Nodes))
	id, x := r.number(nv, p, base)
	fresh := int32(0)
	for gi := 1; gi < len(r.gr); gi++ {
		if r.reuse[gi] < 0 {
			fresh++
		}
	}
	nv.Nodes = make([]*Node, base+fresh)
	copy(nv.Nodes, old.Nodes)
	dropped := r.dropped(removed)
	for _, i := range dropped {
		nv.Nodes[i] = nil
	}
	hashes := r.write(nv, id, base, fresh)
	nv.After = old.After - len(dropped) + int(fresh)
	gone := make([]uint64, len(dropped))
	for k, i := range dropped {
		gone[k] = old.Nodes[i].hash
	}
	nv.sorted = mergeHashes(old.sorted, gone, hashes)
	r.adopt(nv, p, removed, id)
	return nv, x
}

// number gives each group its node's id (the virtual root's is p): walking
// the groups depth first in sibling order, a new one gets the next id from
// base on, and a reused one its old id. In that order, which is the new
// view's pre-order, it checks R1 and R2 on the new nodes and on the old
// ones under a new parent, and returns the first violation, or nil.
func (r *regroup) number(nv *View, p, base int32) ([]int32, *Violation) {
	id := make([]int32, len(r.gr))
	id[0] = p
	var x *Violation
	check := func(gi int32) {
		up, upName := id[r.gr[gi].up], int32(-1)
		if g := r.gr[gi].up; g > 0 {
			upName = r.gr[g].name
		} else if up >= 0 {
			upName = r.old.Nodes[up].name // P
		}
		if x == nil {
			x = nv.violation(id[gi], up, r.gr[gi].name, upName, r.gr[gi].r2)
		}
	}
	next := base
	stack := r.children(nil, 0)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if y := r.reuse[gi]; y >= 0 {
			id[gi] = y
			if r.old.Parent(y) != id[r.gr[gi].up] {
				check(gi)
			}
			continue
		}
		id[gi], next = next, next+1
		check(gi)
		stack = r.children(stack, gi)
	}
	return id, x
}

// dropped lists the ids of the nodes in the subtrees of removed that the
// new view does not have: all but the reused ones and their subtrees.
func (r *regroup) dropped(removed []int32) []int32 {
	reused := make(map[int32]bool)
	for _, y := range r.reuse {
		if y >= 0 {
			reused[y] = true
		}
	}
	var out []int32
	stack := slices.Clone(removed)
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !reused[j] {
			out = append(out, j)
			stack = append(stack, r.old.Nodes[j].Children...)
		}
	}
	return out
}

// write writes the new nodes (ids from base on, fresh of them) into nv,
// and the parents and the call-tree→node table of every group's node. It
// returns the new nodes' hashes, by id - base.
func (r *regroup) write(nv *View, id []int32, base, fresh int32) []uint64 {
	nodes, hashes := make([]Node, fresh), make([]uint64, fresh)
	nodeOf, parent := r.old.nodeOf.writer(), r.old.parent.writer()
	parent.grow(int(base + fresh))
	for gi := int32(1); gi < int32(len(r.gr)); gi++ {
		gr := &r.gr[gi]
		parent.set(id[gi], id[gr.up])
		if r.reuse[gi] >= 0 {
			continue
		}
		nd := &nodes[id[gi]-base]
		r.node(gi, nd)
		nd.Children = id[gr.kidLo:gr.kidHi:gr.kidHi]
		nv.Nodes[id[gi]], hashes[id[gi]-base] = nd, nd.hash
		nodeOf.setAll(nd.Members, id[gi])
	}
	nv.nodeOf, nv.parent = nodeOf.l, parent.l
	return hashes
}

// adopt gives P its new children: the old ones not removed, and the top
// groups' nodes, in sibling order.
func (r *regroup) adopt(nv *View, p int32, removed, id []int32) {
	sibs := r.old.Roots
	if p >= 0 {
		sibs = r.old.Nodes[p].Children
	}
	var kids []int32
	for _, c := range sibs {
		if !slices.Contains(removed, c) {
			kids = append(kids, c)
		}
	}
	kids = append(kids, id[r.gr[0].kidLo:r.gr[0].kidHi]...)
	slices.SortFunc(kids, func(a, b int32) int {
		return r.ix.order(nv.Nodes[a].Total, nv.Nodes[a].name, nv.Nodes[b].Total, nv.Nodes[b].name)
	})
	if p < 0 {
		nv.Roots = kids
		return
	}
	cp := *r.old.Nodes[p]
	cp.Children = kids
	nv.Nodes[p] = &cp
}
