package analysis_test

import (
	"context"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// mapTree is the first NewTree, kept as the test oracle: a trie keyed by
// (parent, frame) in a map, then children sorted by name and a pre-order
// renumbering.
func mapTree(p *analysis.Profile) *analysis.Tree {
	nv := len(p.ValueTypes)
	// Pass 1: a trie with temporary ids, keyed by (parent, frame).
	type key struct{ parent, frame int32 }
	ids := make(map[key]int32)
	var parent, frame []int32
	leaf := make([]int32, p.Stacks.Len())
	for s, st := range p.Stacks.All() {
		cur := int32(-1)
		for _, f := range st {
			k := key{cur, f}
			id, ok := ids[k]
			if !ok {
				id = int32(len(parent))
				parent = append(parent, cur)
				frame = append(frame, f)
				ids[k] = id
			}
			cur = id
		}
		leaf[s] = cur
	}
	ids = nil
	n := len(parent)

	// Children lists (CSR), sorted by frame name then frame id.
	count := make([]int32, n+1)
	var roots []int32
	for i, pa := range parent {
		if pa < 0 {
			roots = append(roots, int32(i))
		} else {
			count[pa+1]++
		}
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	kids := make([]int32, n-len(roots))
	fill := append([]int32(nil), count[:n]...)
	for i, pa := range parent {
		if pa >= 0 {
			kids[fill[pa]] = int32(i)
			fill[pa]++
		}
	}
	less := func(s []int32) func(i, j int) bool {
		return func(i, j int) bool {
			a, b := frame[s[i]], frame[s[j]]
			if na, nb := p.Frames[a].Name, p.Frames[b].Name; na != nb {
				return na < nb
			}
			return a < b
		}
	}
	sort.Slice(roots, less(roots))
	for i := 0; i < n; i++ {
		s := kids[count[i]:count[i+1]]
		if len(s) > 1 {
			sort.Slice(s, less(s))
		}
	}

	// Pass 2: pre-order renumbering with an explicit stack.
	t := &analysis.Tree{
		Profile: p,
		Names:   analysis.NewNames(p),
		Parent:  make([]int32, n),
		Frame:   make([]int32, n),
		Size:    make([]int32, n),
		Depth:   make([]int32, n),
	}
	newID := make([]int32, n)
	next := int32(0)
	stack := make([]int32, 0, 64)
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		old := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := next
		next++
		newID[old] = id
		t.Frame[id] = frame[old]
		if pa := parent[old]; pa >= 0 {
			t.Parent[id] = newID[pa]
			t.Depth[id] = t.Depth[newID[pa]] + 1
		} else {
			t.Parent[id] = -1
			t.Roots = append(t.Roots, id)
		}
		s := kids[count[old]:count[old+1]]
		for j := len(s) - 1; j >= 0; j-- {
			stack = append(stack, s[j])
		}
	}
	for i := range t.Size {
		t.Size[i] = 1
	}
	for id := int32(n) - 1; id >= 0; id-- {
		if pa := t.Parent[id]; pa >= 0 {
			t.Size[pa] += t.Size[id]
		}
	}

	// Values: self at the leaf, then totals bottom-up.
	t.StackNode = make([]int32, p.Stacks.Len())
	for s, l := range leaf {
		if l < 0 {
			t.StackNode[s] = -1
		} else {
			t.StackNode[s] = newID[l]
		}
	}
	t.Self = make([][]int64, nv)
	t.Total = make([][]int64, nv)
	t.Unrooted = make([]int64, nv)
	for v := 0; v < nv; v++ {
		t.Self[v] = make([]int64, n)
	}
	for i := range p.Samples {
		smp := &p.Samples[i]
		node := t.StackNode[smp.Stack]
		for v := 0; v < nv; v++ {
			if node < 0 {
				t.Unrooted[v] += p.Value(smp, v)
			} else {
				t.Self[v][node] += p.Value(smp, v)
			}
		}
	}
	for v := 0; v < nv; v++ {
		tot := append([]int64(nil), t.Self[v]...)
		for id := int32(n) - 1; id >= 0; id-- {
			if pa := t.Parent[id]; pa >= 0 {
				tot[pa] += tot[id]
			}
		}
		t.Total[v] = tot
	}
	return t
}

// TestTreeMatchesMapTree compares NewTree with the map-based oracle on
// random profiles, the demo and the corpus test files.
func TestTreeMatchesMapTree(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var profiles []*analysis.Profile
	for i := 0; i < 300; i++ {
		profiles = append(profiles, testprof.Random(r, r.Intn(80), nil))
	}
	if p, err := formats.Demo("profvis-toy"); err == nil {
		profiles = append(profiles, p)
	}
	profiles = append(profiles, oracleProfiles(t)...)
	for i, p := range profiles {
		got, want := analysis.NewTree(p), mapTree(p)
		got.Names, want.Names = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("profile %d: NewTree differs from the map-based oracle:\n got %+v\nwant %+v", i, got, want)
		}
	}
}

// oracleProfiles loads the small pprof files whose go tool pprof output is
// recorded under pprof/testdata/pprof-oracle.
func oracleProfiles(t *testing.T) []*analysis.Profile {
	t.Helper()
	var out []*analysis.Profile
	for _, name := range []string{"fib.pb.gz", "simple.prof", "java.cpu", "inline_hot.pprof"} {
		p, err := analysis.Load(context.Background(), "pprof/testdata/pprof-oracle/"+name, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
