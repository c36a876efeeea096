package plotting

import (
	"container/heap"
	"sort"

	"github.com/proflens/proflens/compaction"
)

// Item is one drawn node of a picture: a compacted node, a merged node of a
// bottom-up graph, or a fold mark ("+N more") standing for the hidden
// children of its parent.
type Item struct {
	Name   string
	Total  int64
	Self   int64
	Depth  int32
	Parent int32   // index into Pic.Items, -1 for a top item
	Kids   []int32 // indices into Pic.Items, in drawing order (a fold mark last)
	Nodes  []int32 // view nodes it stands for; nil for a fold mark
	Fold   int     // for a fold mark: the number of hidden siblings (> 0)
	// Startup says the item is a start-up chain drawn as one thin bar
	// (Nodes its view nodes), above the program's entry.
	Startup bool
}

// Pic is what a picture draws: a budgeted selection of a tree of compacted
// nodes, with small nodes folded into marks. Items are in pre-order.
type Pic struct {
	View   *compaction.View
	Items  []Item
	Top    []int32 // top items, in drawing order
	Scale  int64   // weight that spans the whole picture (the sum of the top totals)
	Total  int64   // weight that 100% stands for: the whole view
	Depth  int32   // the deepest item's depth
	Bottom bool    // a bottom-up (inverted) graph: items merge compacted nodes by name
	New    []bool  // per item: new since Options.Since; nil when nothing is compared
	Fresh  int     // how many items are new
}

// IsNew reports whether item i is new since the previous picture.
func (p *Pic) IsNew(i int32) bool { return p.New != nil && p.New[i] }

// Hidden returns the number of siblings folded into marks.
func (p *Pic) Hidden() int {
	n := 0
	for i := range p.Items {
		n += p.Items[i].Fold
	}
	return n
}

// source is a tree to select from, possibly computed lazily. Ids are the
// source's own; kids returns positive-weight children by descending total,
// then name.
type source interface {
	tops() []int32
	kids(i int32) []int32
	item(i int32) Item // Name, Total, Self and Nodes filled
}

// spanner is a source whose tops may share weight; span is what they weigh
// together.
type spanner interface{ span() int64 }

// selection is the budgeted choice of source nodes to draw.
type selection struct {
	src      source
	in       map[int32]bool
	kids     map[int32][]int32 // children of included nodes
	pending  map[int32]int     // included node → children not included
	topsLeft int
	marks    int
	count    int
}

// choose includes source nodes heaviest first while the drawn count (nodes
// plus the fold marks they need) stays within max and their weight is at
// least min. The result always includes whole paths from the top.
func choose(src source, max int, min int64) *selection {
	s := &selection{src: src, in: map[int32]bool{}, kids: map[int32][]int32{}, pending: map[int32]int{}}
	h := &candidates{src: src}
	tops := src.tops()
	s.topsLeft = len(tops)
	if s.topsLeft > 0 {
		s.marks = 1
	}
	for _, t := range tops {
		h.push(t, -1)
	}
	for h.Len() > 0 {
		c := heap.Pop(h).(candidate)
		if c.total < min || !s.add(c, max) {
			break
		}
		for _, k := range s.kids[c.id] {
			h.push(k, c.id)
		}
	}
	return s
}

// add includes c when the budget allows and reports whether it did.
func (s *selection) add(c candidate, max int) bool {
	kids := s.src.kids(c.id)
	marks := s.marks
	if len(kids) > 0 {
		marks++
	}
	left := s.topsLeft
	if c.parent >= 0 {
		left = s.pending[c.parent]
	}
	if left == 1 {
		marks--
	}
	if s.count+1+marks > max {
		return false
	}
	s.count++
	s.marks = marks
	if c.parent >= 0 {
		s.pending[c.parent]--
	} else {
		s.topsLeft--
	}
	s.in[c.id] = true
	s.kids[c.id] = kids
	s.pending[c.id] = len(kids)
	return true
}

// pic lays the selection out as a Pic in pre-order; byName orders siblings
// by name instead of by weight.
func (s *selection) pic(v *compaction.View, byName bool) *Pic {
	p := &Pic{View: v}
	tops := s.src.tops()
	if sp, ok := s.src.(spanner); ok {
		p.Scale = sp.span()
	} else {
		for _, t := range tops {
			p.Scale += s.src.item(t).Total
		}
	}
	p.Top = s.emit(p, -1, tops, byName)
	return p
}

// emit appends the included nodes among ids (siblings) and their subtrees,
// then one fold mark for the rest, and returns their item indices.
func (s *selection) emit(p *Pic, parent int32, ids []int32, byName bool) []int32 {
	var shown []Item
	var srcIDs []int32
	mark := Item{Name: "", Parent: parent}
	for _, id := range ids {
		it := s.src.item(id)
		if s.in[id] {
			shown = append(shown, it)
			srcIDs = append(srcIDs, id)
			continue
		}
		mark.Fold++
		mark.Total += it.Total
	}
	order := make([]int, len(shown))
	for i := range order {
		order[i] = i
	}
	if byName {
		sort.SliceStable(order, func(a, b int) bool { return shown[order[a]].Name < shown[order[b]].Name })
	}
	depth := int32(0)
	if parent >= 0 {
		depth = p.Items[parent].Depth + 1
	}
	if depth > p.Depth && (len(shown) > 0 || mark.Fold > 0) {
		p.Depth = depth
	}
	var out []int32
	for _, o := range order {
		it := shown[o]
		it.Parent, it.Depth = parent, depth
		at := int32(len(p.Items))
		p.Items = append(p.Items, it)
		out = append(out, at)
		p.Items[at].Kids = s.emit(p, at, s.kids[srcIDs[o]], byName)
	}
	if mark.Fold > 0 {
		mark.Depth = depth
		mark.Self = mark.Total
		out = append(out, int32(len(p.Items)))
		p.Items = append(p.Items, mark)
	}
	return out
}

// candidate is a source node waiting to be included.
type candidate struct {
	id, parent int32
	total      int64
	name       string
}

// candidates is a max-heap by total, then name, then id (deterministic).
type candidates struct {
	src source
	c   []candidate
}

func (h *candidates) push(id, parent int32) {
	it := h.src.item(id)
	heap.Push(h, candidate{id: id, parent: parent, total: it.Total, name: it.Name})
}

func (h *candidates) Len() int { return len(h.c) }
func (h *candidates) Less(i, j int) bool {
	a, b := h.c[i], h.c[j]
	if a.total != b.total {
		return a.total > b.total
	}
	if a.name != b.name {
		return a.name < b.name
	}
	return a.id < b.id
}
func (h *candidates) Swap(i, j int) { h.c[i], h.c[j] = h.c[j], h.c[i] }
func (h *candidates) Push(x any)    { h.c = append(h.c, x.(candidate)) }
func (h *candidates) Pop() any {
	x := h.c[len(h.c)-1]
	h.c = h.c[:len(h.c)-1]
	return x
}
