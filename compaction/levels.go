package compaction

// levels holds one int32 per call-tree node in pages of levelPage entries.
// States share the pages they do not change: a step copies the page table
// and only the pages holding the nodes it moves, so its cost is the part of
// the tree it touches, not the tree. A page is never written once a state
// using it is made.
type levels struct {
	pages []*[levelPage]int32
	n     int // number of nodes
}

const (
	levelShift = 10
	levelPage  = 1 << levelShift
	levelMask  = levelPage - 1
)

// newLevels returns n levels, all g.
func newLevels(n int, g int32) levels {
	l := levels{pages: make([]*[levelPage]int32, (n+levelMask)>>levelShift), n: n}
	var first [levelPage]int32
	for k := range first {
		first[k] = g
	}
	buf := make([][levelPage]int32, len(l.pages)) // one allocation for every page
	for p := range l.pages {
		buf[p] = first
		l.pages[p] = &buf[p]
	}
	return l
}

// at returns node n's level.
func (l levels) at(n int32) int32 { return l.pages[n>>levelShift][n&levelMask] }

// len returns the number of nodes.
func (l levels) len() int { return l.n }

// flat returns the levels as one slice.
func (l levels) flat() []int32 {
	out := make([]int32, 0, len(l.pages)*levelPage)
	for _, p := range l.pages {
		out = append(out, p[:]...)
	}
	return out[:l.n]
}

// writer changes some levels of a copy of l, copying each page on its first
// write: the pages it does not write stay shared with l.
type writer struct {
	l      levels
	copied []bool // per page: already a private copy
}

func (l levels) writer() *writer {
	return &writer{l: levels{pages: append([]*[levelPage]int32(nil), l.pages...), n: l.n}, copied: make([]bool, len(l.pages))}
}

// set sets node n's level to g.
func (w *writer) set(n, g int32) {
	p := n >> levelShift
	if w.l.pages[p][n&levelMask] == g {
		return
	}
	if !w.copied[p] {
		cp := *w.l.pages[p]
		w.l.pages[p] = &cp
		w.copied[p] = true
	}
	w.l.pages[p][n&levelMask] = g
}
