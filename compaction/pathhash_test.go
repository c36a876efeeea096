package compaction

import (
	"math/rand/v2"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// serialPathHashes is the definition pathHashes implements, one node after
// another in pre-order.
func serialPathHashes(t *analysis.Tree) []uint64 {
	path := make([]uint64, t.Len())
	for n := range path {
		h := uint64(fnvOffset)
		if p := t.Parent[n]; p >= 0 {
			h = fnvAdd(path[p], '>')
		}
		path[n] = mix(fnvString(h, t.Name(int32(n))))
	}
	return path
}

// TestPathHashes: the two-lane hashing equals the serial definition on
// random forests (several roots, chains, bushy nodes, names of unequal
// lengths).
func TestPathHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 2000 {
		tr, _ := build(randomSpecs(r, 60, 0))
		got := make([]uint64, tr.Len())
		pathHashes(tr, got)
		want := serialPathHashes(tr)
		for n := range want {
			if got[n] != want[n] {
				t.Fatalf("tree %d, node %d (%s): hash %#x, want %#x", i, n, tr.Name(int32(n)), got[n], want[n])
			}
		}
	}
}

func TestFnvString2(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"a", ""}, {"", "bc"}, {"lib1.Whale", "lib2.Lung.inhale"}, {"same", "same"}} {
		ha, hb := fnvString2(1, c[0], 2, c[1])
		if ha != fnvString(1, c[0]) || hb != fnvString(2, c[1]) {
			t.Errorf("fnvString2(%q, %q) differs from fnvString on each", c[0], c[1])
		}
	}
}
