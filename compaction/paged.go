package compaction

// paged holds one int32 per call-tree node (a level, or the compacted node
// it belongs to) or per compacted node id (its parent) in pages of pageLen
// values. States and views share the pages they do not change: a step
// copies the page table and only the pages it writes, so its cost is the
// part of the tree it touches, not the tree. A page is never written once
// a state or view using it is made.
type paged struct {
	pages []*[pageLen]int32
	n     int // number of values
}

const (
	pageShift = 10
	pageLen   = 1 << pageShift
	pageMask  = pageLen - 1
)

// pagesOf returns the first n values of flat, whose length is a multiple of
// pageLen, as pages; flat must not be written afterwards.
func pagesOf(flat []int32, n int) paged {
	l := paged{pages: make([]*[pageLen]int32, len(flat)/pageLen), n: n}
	for p := range l.pages {
		l.pages[p] = (*[pageLen]int32)(flat[p*pageLen:])
	}
	return l
}

// flatFor returns room for n values, all g, to be made into pages.
func flatFor(n int, g int32) []int32 {
	flat := make([]int32, (n+pageMask)&^pageMask)
	if g != 0 {
		for k := range flat {
			flat[k] = g
		}
	}
	return flat
}

// newPaged returns n values, all g.
func newPaged(n int, g int32) paged { return pagesOf(flatFor(n, g), n) }

// at returns value n.
func (l paged) at(n int32) int32 { return l.pages[n>>pageShift][n&pageMask] }

// flat returns the values as one slice.
func (l paged) flat() []int32 {
	out := make([]int32, 0, len(l.pages)*pageLen)
	for _, p := range l.pages {
		out = append(out, p[:]...)
	}
	return out[:l.n]
}

// writer changes some values of a copy of l, copying each page on its
// first write: the pages it does not write stay shared with l.
type writer struct {
	l      paged
	copied []bool // per page: already a private copy
}

func (l paged) writer() *writer {
	return &writer{l: paged{pages: append([]*[pageLen]int32(nil), l.pages...), n: l.n}, copied: make([]bool, len(l.pages))}
}

// set sets value n to g.
func (w *writer) set(n, g int32) {
	p := n >> pageShift
	if w.l.pages[p][n&pageMask] != g {
		w.page(p)[n&pageMask] = g
	}
}

// grow makes room for n values, the new ones in new private pages.
func (w *writer) grow(n int) {
	for len(w.l.pages)*pageLen < n {
		w.l.pages = append(w.l.pages, new([pageLen]int32))
		w.copied = append(w.copied, true)
	}
	w.l.n = max(w.l.n, n)
}

// page returns page p, copied first unless it is already private.
func (w *writer) page(p int32) *[pageLen]int32 {
	if !w.copied[p] {
		cp := *w.l.pages[p]
		w.l.pages[p] = &cp
		w.copied[p] = true
	}
	return w.l.pages[p]
}
