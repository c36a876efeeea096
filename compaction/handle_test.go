package compaction

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHandleLengths: handles grow one digit past the longest prefix a
// node's hash shares with another's (all sixteen when it shares fifteen),
// two equal hashes, and only they, get the full hash and the first seed, and each handle, and each unique prefix of four
// digits or more, resolves to its node.
func TestHandleLengths(t *testing.T) {
	cases := []struct {
		hash uint64
		want string
	}{
		{0x1234_0000_0000_0000, "1234"},
		{0x5678_9a00_0000_0000, "56789"},       // shares 4 digits with the next
		{0x5678_a000_0000_0000, "5678a"},       //
		{0x9abc_def0_1234_5678, "9abcdef0123"}, // shares 10 with the next
		{0x9abc_def0_12ff_0000, "9abcdef012f"},
		{0xfedc_ba98_7654_3210, "fedcba9876543210-8"}, // equal: the first seed tells them apart
		{0xfedc_ba98_7654_3210, "fedcba9876543210-9"},
		{0x3333_3333_3333_3330, "3333333333333330"}, // shares 15: all 16 digits, no seed
		{0x3333_3333_3333_3331, "3333333333333331"},
	}
	nodes := make([]*Node, len(cases))
	for i, c := range cases {
		nodes[i] = &Node{Name: "n", Members: []int32{int32(i + 3)}, hash: c.hash}
	}
	v := Assemble(nodes, nil)
	v.sortHashes()
	for i, c := range cases {
		if got := v.Handle(int32(i)); got != c.want {
			t.Errorf("Handle(%d) = %s, want %s", i, got, c.want)
		}
		if j, ok := v.byHandle(c.want); !ok || j != int32(i) {
			t.Errorf("byHandle(%s) = %d, %v, want %d", c.want, j, ok, i)
		}
	}
	for h, want := range map[string]int32{"9abcdef01": -1, "5678": -1, "56789": 1, "9abcdef012": -1, "9abcdef012f": 4, "fedcba98": -1, "123": -1, "12340": -1, "1234": 0} {
		if j, ok := v.byHandle(h); j != want || ok != (want >= 0) {
			t.Errorf("byHandle(%s) = %d, %v, want %d", h, j, ok, want)
		}
	}
}

// TestMergeHashes: the hash order after a step, the old one less the
// dropped hashes and plus the new ones, equals sorting them all, also with
// many equal hashes.
func TestMergeHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for round := range 500 {
		values := uint64(1 + r.IntN(40)) // few distinct hashes
		old := make([]uint64, r.IntN(3000))
		for k := range old {
			old[k] = r.Uint64N(values) << 40
		}
		slices.Sort(old)
		var kept, drop []uint64
		for _, h := range old {
			if r.IntN(4) == 0 {
				drop = append(drop, h)
			} else {
				kept = append(kept, h)
			}
		}
		r.Shuffle(len(drop), func(a, b int) { drop[a], drop[b] = drop[b], drop[a] })
		add := make([]uint64, r.IntN(500))
		for k := range add {
			add[k] = r.Uint64N(values) << 40
		}
		want := slices.Sorted(slices.Values(append(kept, add...)))
		if got := mergeHashes(old, drop, slices.Clone(add)); !slices.Equal(got, want) {
			t.Fatalf("round %d: merged hashes differ from sorting them", round)
		}
	}
}

// TestRadixSort: the radix sort orders hashes as slices.Sort does, with
// equal hashes and hashes that differ in one byte only.
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	for round := range 200 {
		hs := make([]uint64, r.IntN(3000))
		for k := range hs {
			hs[k] = r.Uint64()
			if k%3 == 0 {
				hs[k] = uint64(r.IntN(50)) << (8 * r.IntN(8))
			}
		}
		want := slices.Sorted(slices.Values(hs))
		if radixSort(hs); !slices.Equal(hs, want) {
			t.Fatalf("round %d: radixSort differs from slices.Sort", round)
		}
	}
}

// TestHandlePrefix: a TARGET may be a prefix of a handle when no other
// handle starts with it, whichever node comes first in the view.
func TestHandlePrefix(t *testing.T) {
	nodes := []*Node{
		{Name: "n", Members: []int32{12}, hash: 0xfedc_ba98_7654_3210},
		{Name: "n", Members: []int32{1}, hash: 0x5678_9a00_0000_0000},
		{Name: "n", Members: []int32{8}, hash: 0xfedc_ba98_7654_3210},
		{Name: "n", Members: []int32{2}, hash: 0x5678_a000_0000_0000},
	}
	v := Assemble(nodes, nil)
	v.sortHashes()
	for h, want := range map[string]int32{"56789": 1, "5678a": 3, "5678": -1, "fedcba9876543210-8": 2, "fedcba9876543210-1": 0, "fedcba9876543210-12": 0, "fedcba9876543210": -1} {
		if j, ok := v.byHandle(h); j != want || ok != (want >= 0) {
			t.Errorf("byHandle(%s) = %d, %v, want %d", h, j, ok, want)
		}
	}
}
