package compaction

import (
	"context"
	"slices"
)

// The local step. A step on compacted node c, with parent P, changes only
// the levels of c's members; so of the group rule only the split of K(P)
// can change, and only in the components holding one of c's seeds: c
// itself, split by an expand, or merged by a compact with the siblings
// whose names are now related to one of its seeds' (joining). The other
// children of P keep their seeds, and so their subtrees. The group rule
// runs again from the seeds of c and of the siblings it joins, as K of a
// virtual root; a compacted subtree depends only on its seeds and the
// levels below them, untouched unless the subtree holds c, so a group
// with an old node's name whose seeds all lie in that node (from), not c,
//   - reuse: has the node's very seeds, and is that node, subtree and all;
//   - derive: has some of them, and is the part of that node below them,
//     its members read off the node's rather than by testing names.
// Any other group absorbs its members as Compact does.

// regroup is the group rule run again on the part of view old that a step
// on node target can change.
type regroup struct {
	*grouping
	old    *View
	target int32
	reuse  []int32 // per group: the old node it is, subtree and all, or -1
}

// newRegroup prepares to regroup the given seeds (of target and the
// siblings it joins, in any order) under the new state s.
func newRegroup(ctx context.Context, old *View, s *State, target int32, seeds []int32) (*regroup, error) {
	g, err := newGrouping(ctx, old.Tree, s, old.Value)
	if err != nil {
		return nil, err
	}
	r := &regroup{grouping: g, old: old, target: target}
	slices.Sort(seeds) // seeds are ascending everywhere else
	r.kids = seeds
	r.seed(0)
	return r, nil
}

// seed makes the child groups of up (grouping.seed), none of them reused
// yet.
func (r *regroup) seed(up int32) {
	r.grouping.seed(up)
	for len(r.reuse) < len(r.gr) {
		r.reuse = append(room(r.reuse, 1), -1)
	}
}

// run gives every group its members and child groups, depth first, but
// for the groups that reuse an old node: they keep its subtree. It
// reports false, and stops, when the context is done.
func (r *regroup) run() bool {
	stack := r.children(nil, 0)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		y, same := r.from(gi)
		switch {
		case same:
			r.reuse[gi], r.gr[gi].r2 = y, r.old.Nodes[y].r2
			continue
		case y >= 0 && r.old.Nodes[y].r2 < 0:
			r.derive(gi, y)
		default:
			if !r.absorb(gi) {
				return false
			}
		}
		r.seed(gi)
		stack = r.children(stack, gi)
	}
	return true
}

// from returns the old node that holds all of group gi's seeds, when that
// node is not the target and has gi's name, or -1; and whether its seeds
// are exactly gi's.
func (r *regroup) from(gi int32) (int32, bool) {
	gr := &r.gr[gi]
	seeds := r.seeds[gr.seedLo:gr.seedHi]
	y := r.old.NodeOf(seeds[0])
	if y == r.target || r.old.Nodes[y].name != gr.name {
		return -1, false
	}
	if slices.Equal(r.old.Nodes[y].seeds, seeds) {
		return y, true
	}
	for _, s := range seeds[1:] {
		if r.old.NodeOf(s) != y {
			return -1, false
		}
	}
	return y, false
}

// derive sets group gi's members and K from old node y, whose members
// include gi's seeds and whose name is gi's (from). gi absorbs from a seed
// s exactly what y absorbed from s, the names and levels being the same:
// y's members in s's call subtree (y has no seed there: a node's seeds lie
// under its parent's members, never under its own). So the walk of s's
// subtree is absorb's, with "is the next of those members" for the name
// test. y breaks no R2 (the caller checks), so neither does gi.
func (r *regroup) derive(gi, y int32) {
	gr, members, size := &r.gr[gi], r.old.Nodes[y].Members, r.t.Size
	gr.memLo, gr.r2 = int32(len(r.mem)), -1
	r.kids = r.kids[:0]
	for _, s := range r.seeds[gr.seedLo:gr.seedHi] {
		end := s + size[s]
		a, _ := slices.BinarySearch(members, s)
		b, _ := slices.BinarySearch(members[a:], end)
		in := members[a : a+b] // starts with s
		r.mem = append(room(r.mem, len(in)), in...)
		for c, j := s+1, 1; c < end; {
			if j < len(in) && in[j] == c {
				j, c = j+1, c+1
			} else {
				r.kids = append(r.kids, c)
				c += size[c]
			}
		}
	}
	gr.memHi = int32(len(r.mem))
}

// joining returns the siblings of c (in sibs) that a step on c merges with
// it: those whose name is related to the new name of one of c's seeds.
// Seeds of different old siblings were not related, and only c's names
// changed, so no other sibling can join; and every seed name of a sibling
// x starts with x's name, so x joins exactly when its name is related to a
// new name. Its name is never a proper prefix of a new name n: n is a
// seed's old name with its last element dropped, with one element added,
// or unchanged, so x's name would be a prefix of that old name, related to
// it. So x joins exactly when a new name is its name or a prefix of it
// (never on an expand: names only grow).
func joining(v *View, s *State, c int32, sibs []int32) []int32 {
	ix := s.ix
	names := map[int32]bool{} // c's seeds' new names
	for _, m := range v.Nodes[c].seeds {
		names[ix.cname(v.Tree.Frame[m], s.lv.at(m))] = true
	}
	var out []int32
	for _, x := range sibs {
		joins := false
		for n := v.Nodes[x].name; n >= 0 && !joins; n = ix.parent[n] {
			joins = names[n]
		}
		if joins && x != c {
			out = append(out, x)
		}
	}
	return out
}
