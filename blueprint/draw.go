package blueprint

import (
	"cmp"
	"container/heap"
	"slices"
)

// drawContexts places each box under the box of its view node's parent,
// callees in the view's order (heaviest first).
func (o *builder) drawContexts() {
	b, v := o.b, o.v
	for i := range b.Boxes {
		bx := &b.Boxes[i]
		if p := v.Parent(bx.Node); p >= 0 && o.ofView[p] >= 0 {
			bx.Parent = o.ofView[p]
		} else {
			b.Roots = append(b.Roots, int32(i))
		}
		for _, k := range v.Nodes[bx.Node].Children {
			bx.Kids = append(bx.Kids, o.ofView[k])
		}
	}
}

// drawFunctions places the boxes as a tree: the roots (the boxes entered
// from no box) on top, each other box under the caller through which it
// takes the most time, found greedily from the roots (heaviest edge to a
// box not yet placed first), so that where the calls form a tree, it is
// the one drawn. Time is O(E log E) in the edges.
func (o *builder) drawFunctions() {
	b := o.b
	out := b.out()
	placed := make([]bool, len(b.Boxes))
	h := &edgeHeap{b: b}
	place := func(x int32) {
		placed[x] = true
		for _, e := range out[x] {
			if !placed[b.Edges[e].To] {
				heap.Push(h, e)
			}
		}
	}
	for i := range b.Boxes {
		if o.root[i] {
			b.Roots = append(b.Roots, int32(i))
		}
	}
	slices.SortStableFunc(b.Roots, o.heavier)
	for _, r := range b.Roots {
		place(r)
	}
	for h.Len() > 0 {
		e := b.Edges[heap.Pop(h).(int32)]
		if placed[e.To] {
			continue
		}
		b.Boxes[e.To].Parent = e.From
		b.Boxes[e.From].Kids = append(b.Boxes[e.From].Kids, e.To)
		place(e.To)
	}
	for i := range b.Boxes {
		slices.SortStableFunc(b.Boxes[i].Kids, o.heavier)
	}
}

// heavier orders boxes by descending height, then name.
func (o *builder) heavier(x, y int32) int {
	bx, by := &o.b.Boxes[x], &o.b.Boxes[y]
	return cmp.Or(cmp.Compare(by.Total, bx.Total), cmp.Compare(bx.Name, by.Name))
}

// edgeHeap holds edge indices, the heaviest (Total, then Calls) on top,
// ties by caller and callee index.
type edgeHeap struct {
	b *Blueprint
	e []int32
}

func (h *edgeHeap) Len() int { return len(h.e) }
func (h *edgeHeap) Less(i, j int) bool {
	x, y := &h.b.Edges[h.e[i]], &h.b.Edges[h.e[j]]
	return cmp.Or(cmp.Compare(y.Total, x.Total), cmp.Compare(y.Calls, x.Calls), cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To)) < 0
}
func (h *edgeHeap) Swap(i, j int) { h.e[i], h.e[j] = h.e[j], h.e[i] }
func (h *edgeHeap) Push(x any)    { h.e = append(h.e, x.(int32)) }
func (h *edgeHeap) Pop() any {
	x := h.e[len(h.e)-1]
	h.e = h.e[:len(h.e)-1]
	return x
}

// order puts callees and roots in order of first call when the recording
// has time order, then the edges by caller and callee and the cycles by
// box in drawing order.
func (o *builder) order() {
	b := o.b
	if b.Timed {
		byFirst := func(x, y int32) int { return firstOrder(b.Boxes[x].First, b.Boxes[y].First) }
		for i := range b.Boxes {
			slices.SortStableFunc(b.Boxes[i].Kids, byFirst)
		}
		slices.SortStableFunc(b.Roots, byFirst)
	}
	rank := make([]int32, len(b.Boxes))
	next := int32(0)
	var visit func(i int32)
	visit = func(i int32) {
		rank[i] = next
		next++
		for _, k := range b.Boxes[i].Kids {
			visit(k)
		}
	}
	for _, r := range b.Roots {
		visit(r)
	}
	slices.SortFunc(b.Edges, func(x, y Edge) int {
		return cmp.Or(cmp.Compare(rank[x.From], rank[y.From]), cmp.Compare(rank[x.To], rank[y.To]))
	})
	slices.SortStableFunc(b.Cycles, func(x, y Cycle) int {
		return cmp.Or(cmp.Compare(rank[x.Box], rank[y.Box]), cmp.Compare(x.Function, y.Function))
	})
}
