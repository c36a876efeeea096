package compaction

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPagedWriter checks paged values against a flat slice on random
// writes: a writer's result has exactly the writes, its source is
// unchanged, and the pages it did not write are shared, not copied.
func TestPagedWriter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for round := range 200 {
		n := 1 + r.IntN(5*pageLen)
		src := newPaged(n, 1)
		want := src.flat()
		for range r.IntN(4) { // a few generations, each from the last
			before := slices.Clone(want)
			w := src.writer()
			next := slices.Clone(want)
			written := map[int]bool{}
			for range r.IntN(50) {
				m, g := int32(r.IntN(n)), int32(1+r.IntN(4))
				w.set(m, g)
				if next[m] != g { // a write that changes a value copies its page
					written[int(m)>>pageShift] = true
				}
				next[m] = g
			}
			if got := w.l.flat(); !slices.Equal(got, next) {
				t.Fatalf("round %d: levels after writes differ from the flat oracle", round)
			}
			if got := src.flat(); !slices.Equal(got, before) {
				t.Fatalf("round %d: a writer changed the levels it was made from", round)
			}
			for p := range src.pages {
				if shared := w.l.pages[p] == src.pages[p]; shared == written[p] {
					t.Fatalf("round %d: page %d shared=%v, written=%v", round, p, shared, written[p])
				}
			}
			if w.l.n != n {
				t.Fatalf("round %d: len %d, want %d", round, w.l.n, n)
			}
			src, want = w.l, next
		}
	}
}

// TestPagesOf: values made into pages read back as they were, each from
// its own place, over several pages.
func TestPagesOf(t *testing.T) {
	for _, n := range []int{1, pageLen - 1, pageLen, pageLen + 1, 3*pageLen + 7} {
		flat := flatFor(n, 0)
		for i := range flat {
			flat[i] = int32(i)
		}
		l := pagesOf(flat, n)
		for m := range n {
			if got := l.at(int32(m)); got != int32(m) {
				t.Fatalf("n=%d: value %d reads %d", n, m, got)
			}
		}
		if got := l.flat(); len(got) != n || got[n-1] != int32(n-1) {
			t.Fatalf("n=%d: flat has %d values, last %d", n, len(got), got[len(got)-1])
		}
	}
}

// TestWriterGrow: a writer grown to n values holds the old ones and the
// new ones written, in exactly as many pages as n needs.
func TestWriterGrow(t *testing.T) {
	for _, c := range []struct{ from, to int }{{10, 10}, {10, pageLen}, {pageLen, pageLen + 1}, {pageLen - 1, 2 * pageLen}, {5, 3*pageLen + 2}} {
		w := newPaged(c.from, 2).writer()
		w.grow(c.to)
		for m := c.from; m < c.to; m++ {
			w.set(int32(m), int32(3+m%5))
		}
		got := w.l.flat()
		if len(got) != c.to {
			t.Fatalf("%d → %d: %d values", c.from, c.to, len(got))
		}
		for m, g := range got {
			if want := map[bool]int32{true: 2, false: int32(3 + m%5)}[m < c.from]; g != want {
				t.Fatalf("%d → %d: value %d is %d, want %d", c.from, c.to, m, g, want)
			}
		}
		if pages := len(w.l.pages); pages != (c.to+pageLen-1)/pageLen {
			t.Errorf("%d → %d: %d pages, want %d", c.from, c.to, pages, (c.to+pageLen-1)/pageLen)
		}
	}
}
