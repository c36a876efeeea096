package compaction

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteSandwich is the oracle: per call-tree node with self weight (the
// samples ending there), the path of compacted names from a root, cut at
// the first occurrence of name; the callers are that prefix reversed, the
// callees the rest. Each prefix of either path gets the weight in its
// total, the whole path in its self. Keys are names joined by " > ".
func bruteSandwich(v *View, name string) (callers, callees map[string][2]int64) {
	callers, callees = map[string][2]int64{}, map[string][2]int64{}
	add := func(m map[string][2]int64, path []string, w int64) {
		for k := 1; k <= len(path); k++ {
			key := strings.Join(path[:k], " > ")
			x := m[key]
			x[0] += w
			if k == len(path) {
				x[1] += w
			}
			m[key] = x
		}
	}
	t := v.Tree
	for n := int32(0); n < int32(t.Len()); n++ {
		w := t.Self[v.Value][n]
		if w == 0 {
			continue
		}
		var names []string
		last := int32(-1)
		for _, m := range pathOf(t.Parent, n) {
			if id := v.NodeOf(m); id != last {
				names, last = append(names, v.Nodes[id].Name), id
			}
		}
		k := 0
		for k < len(names) && names[k] != name {
			k++
		}
		if k == len(names) {
			continue
		}
		up := make([]string, 0, k+1)
		for i := k; i >= 0; i-- {
			up = append(up, names[i])
		}
		add(callers, up, w)
		add(callees, names[k:], w)
	}
	return callers, callees
}

// pathOf returns the call-tree nodes from a root down to n.
func pathOf(parent []int32, n int32) []int32 {
	var out []int32
	for ; n >= 0; n = parent[n] {
		out = append([]int32{n}, out...)
	}
	return out
}

// flatten lists a sandwich half as path → (total, self).
func flatten(v *View) map[string][2]int64 {
	out := map[string][2]int64{}
	var walk func(i int32, prefix string)
	walk = func(i int32, prefix string) {
		n := v.Nodes[i]
		key := prefix + n.Name
		out[key] = [2]int64{n.Total, n.Self}
		for _, c := range n.Children {
			walk(c, key+" > ")
		}
	}
	for _, r := range v.Roots {
		walk(r, "")
	}
	return out
}

// sameWeights compares two path maps, leaving out paths of no weight.
func sameWeights(a, b map[string][2]int64) (string, bool) {
	for _, m := range []map[string][2]int64{a, b} {
		for k := range m {
			if a[k] != b[k] {
				return k, false
			}
		}
	}
	return "", true
}

// TestSandwichBruteForce: on random recursive trees at random levels, for
// every compacted name, both halves of the sandwich equal the brute-force
// merge of the call paths through that name.
func TestSandwichBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for i := 0; i < 300; i++ {
		tr := randomTwoValues(r, 40)
		v := Compact(tr, randomLevels(r, tr), r.IntN(2))
		names := map[string]bool{}
		for _, id := range v.Preorder() {
			names[v.Nodes[id].Name] = true
		}
		for name := range names {
			s, err := NewSandwich(v, name)
			if err != nil {
				t.Fatal(err)
			}
			callers, callees := bruteSandwich(v, name)
			for _, half := range []struct {
				what      string
				got, want map[string][2]int64
			}{{"callers", nonZero(flatten(s.Callers)), callers}, {"callees", nonZero(flatten(s.Callees)), callees}} {
				if k, ok := sameWeights(half.got, half.want); !ok {
					t.Fatalf("case %d, %s: %s of %q = %v, brute force %v", i, name, half.what, k, half.got[k], half.want[k])
				}
			}
			if s.Callers.Nodes[0].Total != s.Callees.Nodes[0].Total {
				t.Fatalf("case %d, %s: callers' root %d, callees' root %d", i, name, s.Callers.Nodes[0].Total, s.Callees.Nodes[0].Total)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("checked %d sandwiches", checked)
	}
}

func nonZero(m map[string][2]int64) map[string][2]int64 {
	for k, x := range m {
		if x == [2]int64{} {
			delete(m, k)
		}
	}
	return m
}

// TestSandwichRecursion: a name that recurs on a path counts once there:
// lib2 above lib3 above lib2 is one place of weight 5, its callees hold the
// inner lib2.
func TestSandwichRecursion(t *testing.T) {
	tr, _ := build([]spec{{-1, "lib1.A.f", 0}, {0, "lib2.B.g", 1}, {1, "lib3.C.h", 0}, {2, "lib2.B.k", 4}, {0, "lib3.C.h", 2}})
	v := Compact(tr, NewState(tr, 1), 0)
	s, err := NewSandwich(v, "lib2")
	if err != nil {
		t.Fatal(err)
	}
	if got := figure(s.Callees); got != "lib2 [5] → lib3 [4] → lib2 [4]" || len(s.Places) != 2 || s.Outer != 1 {
		t.Errorf("callees of lib2 = %s (%d places, %d outer), want lib2 [5] → lib3 [4] → lib2 [4] (2, 1)", got, len(s.Places), s.Outer)
	}
	if got := figure(s.Callers); got != "lib2 [5] → lib1 [5]" {
		t.Errorf("callers of lib2 = %s, want lib2 [5] → lib1 [5]", got)
	}
	if _, err := NewSandwich(v, "lib9"); err == nil {
		t.Error("NewSandwich(lib9): no error")
	}
}
