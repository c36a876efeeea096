package compaction

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// TestRecompactEqualsCompact: the view Step builds by recomputing only what
// a step can change is identical, field by field, to the view computed from
// scratch for the new state — on random trees with arbitrary levels, random
// targets, expand and compact.
func TestRecompactEqualsCompact(t *testing.T) {
	t.Run("handles of 4", testRecompact)
	// One-digit handles collide all the time, which exercises lengthening.
	handleMin = 1
	defer func() { handleMin = HandleLen }()
	t.Run("handles of 1", testRecompact)
}

func testRecompact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	spliced, fallback := 0, 0
	for i := 0; i < 5000; i++ {
		tr, _ := build(randomSpecs(r, 16, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		target := int32(r.IntN(len(v.Nodes)))
		ns, changed := stepLevels(tr, v.state, v, target, []int{-1, 1}[r.IntN(2)])
		if !changed {
			continue
		}
		got, _ := recompact(v, ns, target)
		if got == nil {
			fallback++
			continue
		}
		spliced++
		if err := sameView(got, Compact(tr, ns, 0)); err != nil {
			t.Fatalf("case %d, step on %s: %v\nbefore:\n%s\nspliced:\n%s", i, v.Path(target), err, dump(v), dump(got))
		}
	}
	t.Logf("%d spliced, %d fell back to a full recompute", spliced, fallback)
	if spliced < 2000 {
		t.Errorf("only %d steps were spliced", spliced)
	}
}

func sameView(got, want *View) error {
	if len(got.Nodes) != len(want.Nodes) {
		return fmt.Errorf("%d nodes, want %d", len(got.Nodes), len(want.Nodes))
	}
	for i := range want.Nodes {
		g, w := got.Nodes[i], want.Nodes[i]
		if g.Name != w.Name || g.Handle != w.Handle || g.Parent != w.Parent || g.Depth != w.Depth ||
			g.Total != w.Total || g.Self != w.Self || !slices.Equal(g.Children, w.Children) ||
			!slices.Equal(g.Members, w.Members) {
			return fmt.Errorf("node %d = %+v, want %+v", i, g, w)
		}
		if got.name[i] != want.name[i] || got.hash[i] != want.hash[i] || !slices.Equal(sorted(got.seeds[i]), sorted(want.seeds[i])) {
			return fmt.Errorf("node %d: name/hash/seeds differ", i)
		}
	}
	if !slices.Equal(got.Roots, want.Roots) || !slices.Equal(got.byHash, want.byHash) ||
		got.Before != want.Before || got.After != want.After {
		return fmt.Errorf("roots %v, want %v (or byHash, counts)", got.Roots, want.Roots)
	}
	return nil
}

func sorted(s []int32) []int32 { return slices.Sorted(slices.Values(s)) }

// TestSortByHash: the radix sort used for large views orders by (hash,
// index), like a comparison sort, duplicates included.
func TestSortByHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	hash := make([]uint64, 5000)
	for i := range hash {
		hash[i] = r.Uint64()
		if i%3 == 0 {
			hash[i] = uint64(r.IntN(50)) << (8 * r.IntN(8))
		}
	}
	want := make([]int32, len(hash))
	for i := range want {
		want[i] = int32(i)
	}
	slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(hash[a], hash[b]) })
	got, hs := sortHashes(hash)
	if !slices.Equal(got, want) {
		t.Errorf("sortHashes differs from a stable comparison sort")
	}
	for k, i := range got {
		if hs[k] != hash[i] {
			t.Fatalf("sortHashes: sorted[%d] = %#x, want hash[%d] = %#x", k, hs[k], i, hash[i])
		}
	}
}

// TestStepR2WhenNameStays: expanding a node whose own name is already full
// leaves its name and seeds as they were, but its members grow finer; the
// step must still be checked (R2) and not be taken for an unchanged node.
func TestStepR2WhenNameStays(t *testing.T) {
	tr, _ := build([]spec{{-1, "a", 1}, {0, "a.X.f", 1}})
	v := Compact(tr, NewState(tr, 1), 0)
	_, v, err := Step(v, 0, +1)
	if err != nil {
		t.Fatalf("first expand: %v", err)
	}
	if got := figure(v); got != "a [2]" {
		t.Fatalf("after one expand: %s, want a [2]", got)
	}
	_, _, err = Step(v, 0, +1)
	want := "expand a refused: a would absorb a.X.f, two or more levels finer (R2: one package level at a time); lower that to a.X first"
	if err == nil || err.Error() != want {
		t.Errorf("second expand: %v, want %s", err, want)
	}
}

// FuzzResolve: any TARGET text gives an error or a valid node (or -1 for
// all), never a panic; a node's own handle and path resolve to it.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"all", "lib1 > lib2", "a5d1", ">", " > > ", "lib1>lib2>lib3", "", "a5"} {
		f.Add(s)
	}
	tr := toy(f)
	s, _, _ := NewState(tr, 99).SetLevel(tr, 1, regexp.MustCompile(`^lib2\.`))
	v := Compact(tr, s, 0)
	f.Fuzz(func(t *testing.T, target string) {
		i, err := v.Resolve(target)
		if err != nil {
			return
		}
		if i < -1 || i >= int32(len(v.Nodes)) {
			t.Fatalf("Resolve(%q) = %d, out of range", target, i)
		}
		if i >= 0 {
			if j, _ := v.Resolve(v.Nodes[i].Handle); j != i {
				t.Errorf("handle %s resolves to %d, want %d", v.Nodes[i].Handle, j, i)
			}
			if j, _ := v.Resolve(v.Path(i)); j != i {
				t.Errorf("path %s resolves to %d, want %d", v.Path(i), j, i)
			}
		}
	})
}
