package analysis

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Tree is the call tree of a profile: the trie of its stacks. It is built
// once and never modified. Node ids are in pre-order with children sorted by
// frame name, so the subtree of n is the id range [n, n+Size[n]) and the
// children of n are n+1, then each next one at c+Size[c] (see Children).
type Tree struct {
	Profile *Profile
	Names   *Names

	Parent []int32 // -1 for roots
	Frame  []int32 // frame id of each node
	Size   []int32 // nodes in the subtree, the node included
	Depth  []int32 // 0 for roots

	Self  [][]int64 // [value type][node]: values of samples whose leaf is this node
	Total [][]int64 // [value type][node]: values of samples with this node on their path

	Roots     []int32
	StackNode []int32 // per Profile.Stacks id: the node of the stack's leaf, -1 for an empty stack
	Unrooted  []int64 // per value type: values of samples with an empty stack
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.Parent) }

// Children calls yield for each child of n, in order.
func (t *Tree) Children(n int32, yield func(c int32)) {
	end := n + t.Size[n]
	for c := n + 1; c < end; c += t.Size[c] {
		yield(c)
	}
}

// Name returns the full name of node n's frame.
func (t *Tree) Name(n int32) string { return t.Profile.Frames[t.Frame[n]].Name }

// NewTree builds the call tree of p. It sorts the distinct stacks by their
// frames' (name, id) order, so that the sorted stacks list the tree's paths
// in pre-order: each stack adds the nodes below its longest common prefix
// with the previous one. Time is O(S log S) comparisons of stacks plus the
// total stack length; no map is used, and memory is the tree itself.
func NewTree(p *Profile) *Tree {
	t, _ := NewTreeContext(context.Background(), p)
	return t
}

// NewTreeContext is NewTree that gives up with ctx's error soon after ctx
// ends.
func NewTreeContext(ctx context.Context, p *Profile) (*Tree, error) {
	stop := &interrupt{ctx: ctx}
	rank := frameRanks(p)
	order := make([]int32, p.Stacks.Len())
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if stop.done() {
			return 0 // an ended context ends the sort quickly
		}
		return compareRanked(p.Stacks.At(a), p.Stacks.At(b), rank)
	})
	// Pass 1: count the nodes each stack adds, to allocate once.
	n := 0
	var prev []int32
	for _, s := range order {
		st := p.Stacks.At(s)
		n += len(st) - commonPrefix(prev, st)
		prev = st
	}
	t := &Tree{
		Profile: p, Names: newNames(p, stop),
		Parent: make([]int32, 0, n), Frame: make([]int32, 0, n), Depth: make([]int32, 0, n),
		StackNode: make([]int32, p.Stacks.Len()),
	}
	t.addPaths(order, stop)
	t.Size = subtreeSizes(t.Parent)
	t.addValues(stop)
	if stop.err != nil {
		return nil, fmt.Errorf("build the call tree: %w", stop.err)
	}
	return t, nil
}

// addPaths creates the nodes of the stacks, taken in sorted order.
func (t *Tree) addPaths(order []int32, stop *interrupt) {
	p := t.Profile
	var prev, path []int32
	for _, s := range order {
		if stop.done() {
			return
		}
		st := p.Stacks.At(s)
		l := commonPrefix(prev, st)
		path = path[:l]
		for d := l; d < len(st); d++ {
			id := int32(len(t.Parent))
			pa := int32(-1)
			if d > 0 {
				pa = path[d-1]
			} else {
				t.Roots = append(t.Roots, id)
			}
			t.Parent = append(t.Parent, pa)
			t.Frame = append(t.Frame, st[d])
			t.Depth = append(t.Depth, int32(d))
			path = append(path, id)
		}
		t.StackNode[s] = -1
		if len(st) > 0 {
			t.StackNode[s] = path[len(st)-1]
		}
		prev = st
	}
}

// addValues puts each sample's values on its leaf (Self), then sums them
// bottom-up (Total).
func (t *Tree) addValues(stop *interrupt) {
	p, n, nv := t.Profile, t.Len(), len(t.Profile.ValueTypes)
	t.Self, t.Total = make([][]int64, nv), make([][]int64, nv)
	t.Unrooted = make([]int64, nv)
	for v := range nv {
		t.Self[v] = make([]int64, n)
	}
	for i := range p.Samples {
		if stop.done() {
			return
		}
		smp := &p.Samples[i]
		node := t.StackNode[smp.Stack]
		for v, x := range p.Values(smp) {
			if node < 0 {
				t.Unrooted[v] += x
			} else {
				t.Self[v][node] += x
			}
		}
	}
	for v := range nv {
		tot := append([]int64(nil), t.Self[v]...)
		for id := int32(n) - 1; id >= 0; id-- {
			if pa := t.Parent[id]; pa >= 0 {
				tot[pa] += tot[id]
			}
		}
		t.Total[v] = tot
	}
}

// subtreeSizes counts each node's subtree from pre-order parents.
func subtreeSizes(parent []int32) []int32 {
	size := make([]int32, len(parent))
	for id := len(parent) - 1; id >= 0; id-- {
		size[id]++
		if pa := parent[id]; pa >= 0 {
			size[pa] += size[id]
		}
	}
	return size
}

// frameRanks numbers the frames of p in (name, id) order: the order of
// siblings in the tree.
func frameRanks(p *Profile) []int32 {
	byName := make([]int32, len(p.Frames))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int {
		if c := strings.Compare(p.Frames[a].Name, p.Frames[b].Name); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	rank := make([]int32, len(p.Frames))
	for r, f := range byName {
		rank[f] = int32(r)
	}
	return rank
}

// compareRanked orders stacks by their frames' ranks, a prefix first.
func compareRanked(a, b []int32, rank []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return cmp.Compare(rank[a[i]], rank[b[i]])
		}
	}
	return cmp.Compare(len(a), len(b))
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// WithNames returns a copy of t that names its frames' elements by n (for
// instance avid's EntityMap.ElementNames); it shares every other field with t.
func (t *Tree) WithNames(n *Names) *Tree {
	u := *t
	u.Names = n
	return &u
}
