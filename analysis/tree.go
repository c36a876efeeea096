package analysis

import (
	"sort"
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

// NewTree builds the call tree of p in one pass over its distinct stacks,
// then numbers the nodes in pre-order. Time and memory are linear in the total
// length of the distinct stacks.
func NewTree(p *Profile) *Tree {
	nv := len(p.ValueTypes)
	// Pass 1: a trie with temporary ids, keyed by (parent, frame).
	type key struct{ parent, frame int32 }
	ids := make(map[key]int32)
	var parent, frame []int32
	leaf := make([]int32, len(p.Stacks))
	for s, st := range p.Stacks {
		cur := int32(-1)
		for _, f := range st {
			k := key{cur, f}
			id, ok := ids[k]
			if !ok {
				id = int32(len(parent))
				parent = append(parent, cur)
				frame = append(frame, f)
				ids[k] = id
			}
			cur = id
		}
		leaf[s] = cur
	}
	ids = nil
	n := len(parent)

	// Children lists (CSR), sorted by frame name then frame id.
	count := make([]int32, n+1)
	var roots []int32
	for i, pa := range parent {
		if pa < 0 {
			roots = append(roots, int32(i))
		} else {
			count[pa+1]++
		}
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	kids := make([]int32, n-len(roots))
	fill := append([]int32(nil), count[:n]...)
	for i, pa := range parent {
		if pa >= 0 {
			kids[fill[pa]] = int32(i)
			fill[pa]++
		}
	}
	less := func(s []int32) func(i, j int) bool {
		return func(i, j int) bool {
			a, b := frame[s[i]], frame[s[j]]
			if na, nb := p.Frames[a].Name, p.Frames[b].Name; na != nb {
				return na < nb
			}
			return a < b
		}
	}
	sort.Slice(roots, less(roots))
	for i := 0; i < n; i++ {
		s := kids[count[i]:count[i+1]]
		if len(s) > 1 {
			sort.Slice(s, less(s))
		}
	}

	// Pass 2: pre-order renumbering with an explicit stack.
	t := &Tree{
		Profile: p,
		Names:   NewNames(p),
		Parent:  make([]int32, n),
		Frame:   make([]int32, n),
		Size:    make([]int32, n),
		Depth:   make([]int32, n),
	}
	newID := make([]int32, n)
	next := int32(0)
	stack := make([]int32, 0, 64)
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		old := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := next
		next++
		newID[old] = id
		t.Frame[id] = frame[old]
		if pa := parent[old]; pa >= 0 {
			t.Parent[id] = newID[pa]
			t.Depth[id] = t.Depth[newID[pa]] + 1
		} else {
			t.Parent[id] = -1
			t.Roots = append(t.Roots, id)
		}
		s := kids[count[old]:count[old+1]]
		for j := len(s) - 1; j >= 0; j-- {
			stack = append(stack, s[j])
		}
	}
	for i := range t.Size {
		t.Size[i] = 1
	}
	for id := int32(n) - 1; id >= 0; id-- {
		if pa := t.Parent[id]; pa >= 0 {
			t.Size[pa] += t.Size[id]
		}
	}

	// Values: self at the leaf, then totals bottom-up.
	t.StackNode = make([]int32, len(p.Stacks))
	for s, l := range leaf {
		if l < 0 {
			t.StackNode[s] = -1
		} else {
			t.StackNode[s] = newID[l]
		}
	}
	t.Self = make([][]int64, nv)
	t.Total = make([][]int64, nv)
	t.Unrooted = make([]int64, nv)
	for v := 0; v < nv; v++ {
		t.Self[v] = make([]int64, n)
	}
	for i := range p.Samples {
		smp := &p.Samples[i]
		node := t.StackNode[smp.Stack]
		for v := 0; v < nv; v++ {
			if node < 0 {
				t.Unrooted[v] += smp.Values[v]
			} else {
				t.Self[v][node] += smp.Values[v]
			}
		}
	}
	for v := 0; v < nv; v++ {
		tot := append([]int64(nil), t.Self[v]...)
		for id := int32(n) - 1; id >= 0; id-- {
			if pa := t.Parent[id]; pa >= 0 {
				tot[pa] += tot[id]
			}
		}
		t.Total[v] = tot
	}
	return t
}
