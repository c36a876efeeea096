package compaction

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"testing"
	"time"
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
	handleMin = HandleLen
	t.Run("renumbered", func(t *testing.T) {
		renumberSlack = 0
		defer func() { renumberSlack = 4096 }()
		testSteps(t)
	})
	// Every step's regrouping shared between two goroutines, however small.
	t.Run("shared", func(t *testing.T) {
		shared, handoffs := 0, 0
		shareMin, shareEager = 0, true
		shareSeen = func(n int) { shared, handoffs = shared+1, handoffs+n }
		defer func() { shareMin, shareEager, shareSeen = 8192, false, nil }()
		testRecompact(t)
		testSteps(t)
		t.Logf("%d regroupings shared, %d groups handed on", shared, handoffs)
		if handoffs < 1000 { // most regroupings here are a group or two
			t.Errorf("only %d groups handed on in %d shared regroupings", handoffs, shared)
		}
	})
}

// testSteps: chains of 30 steps by Step, which renumbers the view whenever
// more than half its ids are dropped ones (renumberSlack 0), each equal to
// the view computed from scratch; and a view with dropped ids, renumbered,
// is the same view numbered in pre-order.
func testSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	steps, sparse := 0, 0
	for i := 0; i < 300; i++ {
		tr, _ := build(randomSpecs(r, 16, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for step := 0; step < 30; step++ {
			pre := v.Preorder()
			target := pre[r.IntN(len(pre))]
			ns, nv, err := Step(v, target, []int{-1, 1}[r.IntN(2)])
			if err != nil {
				continue
			}
			steps++
			if len(nv.Nodes) != nv.After {
				sparse++
				rv := nv.renumbered()
				if err := sameView(rv, nv); err != nil || !isPreorderNumbered(rv) {
					t.Fatalf("case %d, step %d: renumbered view differs (%v) or is not in pre-order", i, step, err)
				}
			}
			if err := sameView(nv, Compact(tr, ns, 0)); err != nil {
				t.Fatalf("case %d, step %d on %s: %v", i, step, v.Path(target), err)
			}
			checkInvariants(t, nv)
			if t.Failed() {
				t.FailNow()
			}
			v = nv
		}
	}
	t.Logf("%d steps, %d left dropped ids", steps, sparse)
	if sparse < 100 {
		t.Errorf("only %d of %d steps left dropped ids", sparse, steps)
	}
}

// isPreorderNumbered reports whether v's ids are its pre-order positions,
// with no dropped ids: how Compact numbers a view.
func isPreorderNumbered(v *View) bool {
	for k, i := range v.Preorder() {
		if int32(k) != i {
			return false
		}
	}
	return len(v.Nodes) == v.After
}

func testRecompact(t *testing.T) {
	spliced, fallback, chained := 0, 0, 0
	stepChains(rand.New(rand.NewPCG(9, 9)), 5000, 16, func(i, step int, v *View, ns *State, target int32) *View {
		levels, text := v.state.Levels(), dump(v)
		got, _ := recompact(v, ns, target, nil)
		// Views and states share pages and nodes: the step must not
		// have changed the view it started from.
		if !slices.Equal(v.state.Levels(), levels) || dump(v) != text {
			t.Fatalf("case %d, step %d: the step changed the view before it", i, step)
		}
		checkInvariants(t, v)
		if got == nil {
			fallback++
			return nil
		}
		spliced++
		if step > 0 {
			chained++
		}
		if err := sameView(got, Compact(v.Tree, ns, 0)); err != nil {
			t.Fatalf("case %d, step %d on %s: %v\nbefore:\n%s\nspliced:\n%s", i, step, v.Path(target), err, dump(v), dump(got))
		}
		checkInvariants(t, got)
		if t.Failed() {
			t.Fatalf("case %d, step %d", i, step)
		}
		return got
	})
	t.Logf("%d spliced (%d after another splice), %d fell back to a full recompute", spliced, chained, fallback)
	if spliced < 2000 || chained < 1000 {
		t.Errorf("only %d steps were spliced, %d of them chained", spliced, chained)
	}
}

// stepChains makes cases random trees of up to size nodes with arbitrary
// levels, and on each a chain of up to 4 steps on random targets: a step
// that changes some level is handed to step, with the view it starts from
// and the new state, and the chain goes on from the view step returns (nil
// ends it). The views after the first are a step's, whose ids are no
// longer in pre-order and some of them dropped.
func stepChains(r *rand.Rand, cases, size int, step func(i, k int, v *View, ns *State, target int32) *View) {
	for i := 0; i < cases; i++ {
		tr, _ := build(randomSpecs(r, size, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for k := 0; k < 4 && v != nil; k++ {
			pre := v.Preorder()
			target := pre[r.IntN(len(pre))]
			ns, changed := stepLevels(tr, v.state, v, target, []int{-1, 1}[r.IntN(2)])
			if changed {
				v = step(i, k, v, ns, target)
			}
		}
	}
}

// sameView compares two views node by node in pre-order, ids aside: a
// step keeps the ids of the nodes it does not change, so its view numbers
// nodes differently from a fresh Compact.
func sameView(got, want *View) error {
	if got.After != want.After || got.Before != want.Before || len(got.Roots) != len(want.Roots) {
		return fmt.Errorf("%d → %d nodes, %d roots; want %d → %d, %d", got.Before, got.After, len(got.Roots), want.Before, want.After, len(want.Roots))
	}
	gp, wp := got.Preorder(), want.Preorder()
	if len(gp) != len(wp) {
		return fmt.Errorf("%d nodes in pre-order, want %d", len(gp), len(wp))
	}
	pos := func(v *View, pre []int32) []int32 { // id -> pre-order position
		at := make([]int32, len(v.Nodes))
		for k := range at {
			at[k] = -1
		}
		for k, i := range pre {
			at[i] = int32(k)
		}
		return at
	}
	gat, wat := pos(got, gp), pos(want, wp)
	place := func(at []int32, ids []int32) []int32 {
		out := make([]int32, len(ids))
		for k, i := range ids {
			out[k] = at[i]
		}
		return out
	}
	up := func(at []int32, p int32) int32 {
		if p < 0 {
			return -1
		}
		return at[p]
	}
	for k := range wp {
		g, w := got.Nodes[gp[k]], want.Nodes[wp[k]]
		if g.Name != w.Name || got.Handle(gp[k]) != want.Handle(wp[k]) || up(gat, got.Parent(gp[k])) != up(wat, want.Parent(wp[k])) ||
			got.Depth(gp[k]) != want.Depth(wp[k]) || g.Total != w.Total || g.Self != w.Self ||
			!slices.Equal(place(gat, g.Children), place(wat, w.Children)) ||
			!slices.Equal(g.Members, w.Members) {
			return fmt.Errorf("node %d in pre-order = %+v, want %+v", k, g, w)
		}
		if g.name != w.name || g.hash != w.hash || got.hlen[gp[k]] != want.hlen[wp[k]] || !slices.Equal(sorted(g.seeds), sorted(w.seeds)) {
			return fmt.Errorf("node %d in pre-order: name/hash/seeds differ", k)
		}
	}
	if !slices.Equal(place(gat, got.Roots), place(wat, want.Roots)) || !slices.Equal(got.sorted, want.sorted) ||
		!slices.Equal(place(gat, got.byHash), place(wat, want.byHash)) {
		return fmt.Errorf("roots %v, want %v (or the hash order)", place(gat, got.Roots), place(wat, want.Roots))
	}
	for i, nd := range got.Nodes {
		if nd != nil && gat[i] < 0 {
			return fmt.Errorf("node id %d (%s) is live but not in pre-order", i, nd.Name)
		}
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

// TestMergeByHashTies: the hash order after a step is the kept and the new
// nodes ordered by (hash, id), also when many hashes are equal, as they are
// only by accident in a real view; and the positions it calls dirty
// include every one whose neighbour changed.
func TestMergeByHashTies(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for round := range 300 {
		n := 1 + r.IntN(3000)
		values := uint64(1 + r.IntN(40)) // few distinct hashes
		v := &View{Nodes: make([]*Node, n)}
		for i := range v.Nodes {
			v.Nodes[i] = &Node{hash: r.Uint64N(values) << 40}
		}
		all := make([]int32, n)
		for i := range all {
			all[i] = int32(i)
		}
		v.byHash, v.sorted = v.sortHashes(all)
		var kept, dropped []int32
		for i := range int32(n) {
			if r.IntN(4) == 0 {
				dropped = append(dropped, i)
			} else {
				kept = append(kept, i)
			}
		}
		r.Shuffle(len(dropped), func(a, b int) { dropped[a], dropped[b] = dropped[b], dropped[a] })
		nNew := r.IntN(500)
		fresh, hash := make([]int32, nNew), make([]uint64, nNew)
		nv := &View{Nodes: append(slices.Clone(v.Nodes), make([]*Node, nNew)...)}
		for k := range fresh {
			fresh[k], hash[k] = int32(n+k), r.Uint64N(values)<<40
			nv.Nodes[n+k] = &Node{hash: hash[k]}
		}
		for _, i := range dropped {
			nv.Nodes[i] = nil
		}
		dirty := mergeByHash(v, nv, fresh, hash, dropped, len(kept)+nNew)
		want := append(slices.Clone(kept), fresh...)
		slices.SortFunc(want, func(a, b int32) int {
			return cmp.Or(cmp.Compare(nv.Nodes[a].hash, nv.Nodes[b].hash), cmp.Compare(a, b))
		})
		if !slices.Equal(nv.byHash, want) {
			t.Fatalf("round %d: hash order differs from (hash, id) order", round)
		}
		for k, i := range nv.byHash {
			if nv.sorted[k] != nv.Nodes[i].hash {
				t.Fatalf("round %d: sorted[%d] is not the hash of node %d", round, k, i)
			}
		}
		// Every position whose left or right neighbour is not the one it had
		// (or that is new) must be dirty.
		neighbours := func(order []int32, k int) [2]int32 { // -1: none
			n := [2]int32{-1, -1}
			if k > 0 {
				n[0] = order[k-1]
			}
			if k+1 < len(order) {
				n[1] = order[k+1]
			}
			return n
		}
		before := map[int32][2]int32{}
		for k, i := range v.byHash {
			before[i] = neighbours(v.byHash, k)
		}
		for k, i := range nv.byHash {
			if b, ok := before[i]; (!ok || b != neighbours(nv.byHash, k)) && !slices.Contains(dirty, int32(k)) {
				t.Fatalf("round %d: position %d (node %d) changed neighbours but is not dirty", round, k, i)
			}
		}
	}
}

// TestStepFullNameNotCoarser: expanding a node whose own name is already
// full leaves its name and seeds as they were, but its members grow finer.
// R2 concerns only names that compaction shortened (issue 20): the node is
// the function a, whose name a.X.f starts with, so the step is taken and a
// absorbs a.X.f by the group rule, as Compact of the new state does.
func TestStepFullNameNotCoarser(t *testing.T) {
	tr, _ := build([]spec{{-1, "a", 1}, {0, "a.X.f", 1}})
	v := Compact(tr, NewState(tr, 1), 0)
	_, v, err := Step(v, 0, +1)
	if err != nil {
		t.Fatalf("first expand: %v", err)
	}
	if got := figure(v); got != "a [2]" {
		t.Fatalf("after one expand: %s, want a [2]", got)
	}
	ns, v, err := Step(v, v.Roots[0], +1) // the step gave the root a new id
	if err != nil {
		t.Fatalf("second expand: %v", err)
	}
	if err := sameView(v, Compact(tr, ns, 0)); err != nil || figure(v) != "a [2]" || v.Check() != nil {
		t.Errorf("second expand: %s (%v, check %v), want a [2] as Compact makes it", figure(v), err, v.Check())
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
		if i != -1 && !v.Has(i) {
			t.Fatalf("Resolve(%q) = %d, out of range", target, i)
		}
		if i >= 0 {
			if j, _ := v.Resolve(v.Handle(i)); j != i {
				t.Errorf("handle %s resolves to %d, want %d", v.Handle(i), j, i)
			}
			if j, _ := v.Resolve(v.Path(i)); j != i {
				t.Errorf("path %s resolves to %d, want %d", v.Path(i), j, i)
			}
		}
	})
}

// TestStepPanicReachesCaller: a panic on a step's other goroutines is
// raised again on the goroutine that called Step, where the kernel's
// recover turns it into an error for the cell instead of ending the
// process.
func TestStepPanicReachesCaller(t *testing.T) {
	tr := toy(t)
	v := Compact(tr, NewState(tr, 1), 0)
	target, err := v.Resolve("lib1 > lib2")
	if err != nil {
		t.Fatal(err)
	}
	shareMin, shareEager = 0, true
	defer func() { shareMin, shareEager = 8192, false }()
	before := runtime.NumGoroutine()
	for _, fault := range []*func(){&hashWorkFault, &shareFault} {
		*fault = func() { panic("injected") }
		got := func() (p any) {
			defer func() { p = recover() }()
			Step(v, target, +1)
			return nil
		}()
		*fault = nil
		if got != "injected" {
			t.Fatalf("Step's caller recovered %v, want the injected panic", got)
		}
		if _, _, err := Step(v, target, +1); err != nil {
			t.Fatalf("the same step without the fault: %v", err)
		}
	}
	helpersEnded(t, before)
}

// A step numbers its new nodes the same whether its regrouping was shared
// or not, and however the groups happened to be handed on.
func TestSharedStepSameIDs(t *testing.T) {
	handoffs := 0
	defer func() { shareMin, shareEager, shareSeen = 8192, false, nil }()
	stepChains(rand.New(rand.NewPCG(12, 12)), 3000, 40, func(i, step int, v *View, ns *State, target int32) *View {
		shareMin, shareEager, shareSeen = 1<<30, false, nil
		alone, _ := recompact(v, ns, target, nil)
		shareMin, shareEager = 0, true
		shareSeen = func(n int) { handoffs += n }
		both, _ := recompact(v, ns, target, nil)
		if alone == nil || both == nil {
			return nil
		}
		if len(alone.Nodes) != len(both.Nodes) {
			t.Fatalf("case %d, step %d: %d ids shared, %d not", i, step, len(both.Nodes), len(alone.Nodes))
		}
		for id, a := range alone.Nodes {
			b := both.Nodes[id]
			if (a == nil) != (b == nil) || a != nil && (!slices.Equal(a.Members, b.Members) || !slices.Equal(a.Children, b.Children)) {
				t.Fatalf("case %d, step %d: node %d differs: %v against %v", i, step, id, a, b)
			}
		}
		return both
	})
	t.Logf("%d groups handed on", handoffs)
	if handoffs < 1000 {
		t.Errorf("only %d groups handed on", handoffs)
	}
}

// Every step's helper goroutine ends with the step, whatever the step's
// outcome: taken, refused, or recomputed whole by Compact; and so does it
// after a panic on either goroutine (TestStepPanicReachesCaller). A helper
// left behind would spin for as long as the kernel runs. The steps it
// helps give Compact's view (the other tests call recompact, without one).
func TestStepHelperEnds(t *testing.T) {
	// Every step on a node has a helper, and hands groups on to it.
	handoffs := 0
	shareMin, shareEager, shareSeen = 0, true, func(n int) { handoffs += n }
	defer func() { shareMin, shareEager, shareSeen = 8192, false, nil }()
	before := runtime.NumGoroutine()
	var taken, refused, whole int
	stepChains(rand.New(rand.NewPCG(14, 14)), 400, 40, func(i, k int, v *View, ns *State, target int32) *View {
		if nv, _ := recompact(v, ns, target, nil); nv == nil {
			whole++
		}
		var next *View
		for _, delta := range []int{-1, +1} {
			ns, nv, err := Step(v, target, delta)
			if err != nil {
				refused++
				continue
			}
			if err := sameView(nv, Compact(v.Tree, ns, v.Value)); err != nil {
				t.Fatalf("case %d, step %d: %v", i, k, err)
			}
			taken++
			next = nv
		}
		return next
	})
	t.Logf("%d steps taken, %d refused, %d recomputed whole; %d groups handed on", taken, refused, whole, handoffs)
	if taken == 0 || refused == 0 || whole == 0 || handoffs < 100 {
		t.Fatalf("want steps of every outcome and groups handed on: %d taken, %d refused, %d recomputed whole; %d handed on", taken, refused, whole, handoffs)
	}
	helpersEnded(t, before)
}

// helpersEnded fails unless the number of goroutines comes back to before
// (a goroutine that has closed its channel may take a moment to be gone).
func helpersEnded(t *testing.T, before int) {
	t.Helper()
	n := runtime.NumGoroutine()
	for try := 0; n > before && try < 100; try++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	if n > before {
		t.Fatalf("%d goroutines after the steps, %d before", n, before)
	}
}
