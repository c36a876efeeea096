package compaction

import "slices"

// splice is the view after a step in the making, from the view before it
// and the groups r made under P in place of the children of P it removed:
// the old view less the subtrees of those children, but for the old nodes
// r reuses, plus r's new nodes. The old view's nodes, tables and pages are
// shared, not copied, but for the nodes whose children change (P, and the
// parents of nodes moved to close holes).
type splice struct {
	*regroup
	p              int32   // P, -1 for the roots
	removed        []int32 // the children of P that the step removed
	nv             *View
	id             []int32 // per group: its node's id (the virtual root's is p)
	made           []int32 // the groups of new nodes, in pre-order
	nodeOf, parent *writer
}

// splice returns the view after the step, and the first violation of R1
// or R2 in pre-order among the new nodes and the old ones under a new
// parent, or nil. New nodes take the ids of dropped ones, and the view's
// ids stay 0..After-1 (closeHoles).
func (r *regroup) splice(p int32, removed []int32) (*View, *Violation) {
	old := r.old
	s := &splice{regroup: r, p: p, removed: removed,
		nv:     &View{Tree: old.Tree, Value: old.Value, Before: old.Before, Roots: old.Roots, state: r.s},
		nodeOf: old.nodeOf.writer(), parent: old.parent.writer()}
	dropped := r.dropped(removed)
	slices.Sort(dropped)
	x := s.number(dropped)
	nv, fresh := s.nv, len(s.made)
	nv.After = old.After - len(dropped) + fresh
	nv.Nodes = make([]*Node, max(len(old.Nodes), nv.After))
	copy(nv.Nodes, old.Nodes)
	for _, i := range dropped {
		nv.Nodes[i] = nil
	}
	hashes := s.write()
	s.adopt()
	gone := make([]uint64, len(dropped))
	for k, i := range dropped {
		gone[k] = old.Nodes[i].hash
	}
	nv.sorted = mergeHashes(old.sorted, gone, hashes)
	if fresh < len(dropped) {
		to := s.closeHoles(dropped[fresh:])
		if x != nil {
			x.Node, x.Parent = to(x.Node), to(x.Parent)
		}
	}
	nv.nodeOf, nv.parent = s.nodeOf.l, s.parent.l
	return nv, x
}

// dropped lists the ids of the nodes in the subtrees of removed that the
// new view does not have: all but the reused ones and their subtrees.
func (r *regroup) dropped(removed []int32) []int32 {
	reused := make([]bool, len(r.old.Nodes))
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

// number gives each group its node's id, walking the groups depth first in
// sibling order: a reused one its old id, a new one the next of the free
// ids (the dropped ones, ascending, then ids past the old view's). In that
// order, which is the new view's pre-order, it checks R1 and R2 on the new
// nodes and on the old ones under a new parent, and returns the first
// violation, or nil.
func (s *splice) number(free []int32) *Violation {
	s.id = make([]int32, len(s.gr))
	s.id[0] = s.p
	past := int32(len(s.old.Nodes))
	var x *Violation
	stack := s.children(nil, 0)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		up := s.id[s.gr[gi].up]
		if y := s.reuse[gi]; y >= 0 {
			s.id[gi] = y
			if x == nil && s.old.Parent(y) != up {
				x = s.check(gi)
			}
			continue
		}
		if k := len(s.made); k < len(free) {
			s.id[gi] = free[k]
		} else {
			s.id[gi] = past + int32(k-len(free))
		}
		s.made = append(s.made, gi)
		if x == nil {
			x = s.check(gi)
		}
		stack = s.children(stack, gi)
	}
	return x
}

// check looks for a violation of R1 or R2 at group gi's node.
func (s *splice) check(gi int32) *Violation {
	gr := &s.gr[gi]
	up, upName := s.id[gr.up], int32(-1)
	if gr.up > 0 {
		upName = s.gr[gr.up].name
	} else if up >= 0 {
		upName = s.old.Nodes[up].name // P
	}
	return s.nv.violation(s.id[gi], up, gr.name, upName, gr.r2)
}

// write writes the new nodes into nv, and the parents and the
// call-tree→node table of every group's node. It returns the new nodes'
// hashes.
func (s *splice) write() []uint64 {
	nodes, hashes := make([]Node, len(s.made)), make([]uint64, len(s.made))
	s.parent.grow(len(s.nv.Nodes))
	for gi := int32(1); gi < int32(len(s.gr)); gi++ {
		s.parent.set(s.id[gi], s.id[s.gr[gi].up])
	}
	for k, gi := range s.made {
		gr, nd := &s.gr[gi], &nodes[k]
		s.node(gi, nd)
		nd.Children = s.id[gr.kidLo:gr.kidHi:gr.kidHi]
		s.nv.Nodes[s.id[gi]], hashes[k] = nd, nd.hash
		for _, m := range nd.Members {
			s.nodeOf.set(m, s.id[gi])
		}
	}
	return hashes
}

// adopt gives P its new children: the old ones not removed, and the top
// groups' nodes, in sibling order.
func (s *splice) adopt() {
	var kids []int32
	for _, c := range s.nv.children(s.p) {
		if !slices.Contains(s.removed, c) {
			kids = append(kids, c)
		}
	}
	kids = append(kids, s.id[s.gr[0].kidLo:s.gr[0].kidHi]...)
	nodes := s.nv.Nodes
	slices.SortFunc(kids, func(a, b int32) int {
		return s.ix.order(nodes[a].Total, nodes[a].name, nodes[b].Total, nodes[b].name)
	})
	s.nv.setChildren(s.p, kids)
}

// closeHoles moves the nodes with the highest ids into holes, the ids of
// dropped nodes left over (ascending), so that nv's ids are 0..After-1. A
// moved node is copied, its members and children are pointed at its new
// id, and its parent is given a copy of its children with the new id. It
// returns the map from old ids to new ones.
func (s *splice) closeHoles(holes []int32) func(int32) int32 {
	nv, n := s.nv, int32(s.nv.After)
	moved := make(map[int32]int32)
	top := int32(len(nv.Nodes)) - 1
	for _, h := range holes {
		if h >= n {
			break
		}
		for nv.Nodes[top] == nil {
			top--
		}
		moved[top] = h
		nd := *nv.Nodes[top]
		nv.Nodes[h] = &nd
		for _, m := range nd.Members {
			s.nodeOf.set(m, h)
		}
		top--
	}
	to := func(i int32) int32 {
		if j, ok := moved[i]; ok {
			return j
		}
		return i
	}
	parents := make(map[int32]bool)
	for k, h := range moved {
		p := to(s.parent.l.at(k))
		s.parent.set(h, p)
		for _, c := range nv.Nodes[h].Children {
			s.parent.set(to(c), h)
		}
		parents[p] = true
	}
	for p := range parents {
		kids := slices.Clone(nv.children(p))
		for k, c := range kids {
			kids[k] = to(c)
		}
		nv.setChildren(p, kids)
	}
	nv.Nodes = nv.Nodes[:n]
	return to
}
