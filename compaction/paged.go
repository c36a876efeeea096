package compaction

// paged holds one int32 per call-tree node (a level, or the compacted node
// it belongs to) or per compacted node id (its parent) in pages of pageLen
// entries. States and views share the
// pages they do not change: a step copies the page table and only the pages
// holding the nodes it changes, so its cost is the part of the tree it
// touches, not the tree. A page is never written once a state or view
// using it is made.
type paged struct {
	pages []*[pageLen]int32
	n     int // number of nodes
}

const (
	pageShift = 10
	pageLen   = 1 << pageShift
	pageMask  = pageLen - 1
)

// newPaged returns n values, all g.
func newPaged(n int, g int32) paged {
	l := paged{pages: make([]*[pageLen]int32, (n+pageMask)>>pageShift), n: n}
	var first [pageLen]int32
	for k := range first {
		first[k] = g
	}
	buf := make([][pageLen]int32, len(l.pages)) // one allocation for every page
	for p := range l.pages {
		buf[p] = first
		l.pages[p] = &buf[p]
	}
	return l
}

// at returns node n's value.
func (l paged) at(n int32) int32 { return l.pages[n>>pageShift][n&pageMask] }

// len returns the number of nodes.
func (l paged) len() int { return l.n }

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

// freshWriter returns a writer of n values whose pages are all private and
// zero, for a caller that sets every value.
func freshWriter(n int) *writer {
	l := paged{pages: make([]*[pageLen]int32, (n+pageMask)>>pageShift), n: n}
	buf := make([][pageLen]int32, len(l.pages))
	copied := make([]bool, len(l.pages))
	for p := range l.pages {
		l.pages[p], copied[p] = &buf[p], true
	}
	return &writer{l: l, copied: copied}
}

func (l paged) writer() *writer {
	return &writer{l: paged{pages: append([]*[pageLen]int32(nil), l.pages...), n: l.n}, copied: make([]bool, len(l.pages))}
}

// set sets node n's value to g.
func (w *writer) set(n, g int32) {
	p := n >> pageShift
	if w.l.pages[p][n&pageMask] == g {
		return
	}
	w.page(p)[n&pageMask] = g
}

// setAll sets the value of every node of ns, ascending, to g.
func (w *writer) setAll(ns []int32, g int32) {
	for len(ns) > 0 {
		p := ns[0] >> pageShift
		page := w.l.pages[p]
		k := 0 // ns[:k] are on page p
		same := true
		for ; k < len(ns) && ns[k]>>pageShift == p; k++ {
			same = same && page[ns[k]&pageMask] == g
		}
		if !same {
			page = w.page(p)
			for _, n := range ns[:k] {
				page[n&pageMask] = g
			}
		}
		ns = ns[k:]
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
