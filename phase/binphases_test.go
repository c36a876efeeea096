package phase

import (
	"math/rand/v2"
	"testing"
)

// TestBinPhases: each bin of the matrix's axes shows the phase covering
// most of its intervals, the lowest id on a tie (counted here afresh).
func TestBinPhases(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 500 {
		n := 1 + r.IntN(40)
		v := manyNames(n, 1+r.IntN(4))
		s, err := NewSimilarity(t.Context(), v, 1, 1+r.IntN(n), 0)
		if err != nil {
			t.Fatal(err)
		}
		of := make([]int32, n)
		for k := range of {
			of[k] = int32(r.IntN(4))
		}
		got := s.BinPhases(of)
		if len(got) != s.Side() {
			t.Fatalf("case %d: %d bins, want %d", i, len(got), s.Side())
		}
		for b := range got {
			in := of[s.Bins[b]:s.Bins[b+1]]
			want, most := int32(-1), 0
			for id := int32(0); id < 4; id++ {
				if c := occurrences(in, id); c > most {
					want, most = id, c
				}
			}
			if got[b] != want {
				t.Fatalf("case %d: bin %d of %v (intervals %v) shows phase %d, want %d", i, b, s.Bins, in, got[b], want)
			}
		}
	}
}

func occurrences(of []int32, id int32) int {
	n := 0
	for _, x := range of {
		if x == id {
			n++
		}
	}
	return n
}
