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
