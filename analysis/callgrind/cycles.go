package callgrind

import "slices"

// cycle is a strongly connected component of the call graph: one function,
// or functions that call each other (recursion). Costs of calls between
// its members overlap (a recursive call's inclusive cost is inside its
// caller's), so a cycle is costed as a whole: its members' self costs plus
// the calls that leave it.
type cycle struct {
	members []int32 // ascending
	cost    []int64 // per event: the members' self costs plus the costs of the calls leaving the cycle
	inCalls int64   // calls entering the cycle from outside
	inCost  []int64 // per event: their inclusive cost
}

// cycles returns the strongly connected components of g and, per
// function, the index of its own. Components are numbered by their first
// member, so the numbering follows the file.
func cycles(g *graph) ([]cycle, []int32) {
	t := &tarjan{g: g, index: make([]int32, len(g.funcs)), low: make([]int32, len(g.funcs)), on: make([]bool, len(g.funcs))}
	for i := range t.index {
		t.index[i] = -1
	}
	for f := range g.funcs {
		if t.index[f] < 0 {
			t.visit(int32(f))
		}
	}
	slices.SortFunc(t.comps, func(a, b []int32) int { return int(a[0] - b[0]) })
	comp := make([]int32, len(g.funcs))
	out := make([]cycle, len(t.comps))
	for c, members := range t.comps {
		out[c] = cycle{members: members, cost: make([]int64, len(g.events)), inCost: make([]int64, len(g.events))}
		for _, m := range members {
			comp[m] = int32(c)
		}
	}
	for f := range g.funcs {
		add(out[comp[f]].cost, g.funcs[f].self)
	}
	for _, e := range g.edges {
		if from, to := comp[e.from], comp[e.to]; from != to {
			add(out[from].cost, e.cost)
			add(out[to].inCost, e.cost)
			out[to].inCalls += e.calls
		}
	}
	return out, comp
}

func add(sum, x []int64) {
	for i := range x {
		sum[i] += x[i]
	}
}

// tarjan is Tarjan's algorithm for strongly connected components.
type tarjan struct {
	g          *graph
	index, low []int32
	on         []bool
	stack      []int32
	next       int32
	comps      [][]int32
}

func (t *tarjan) visit(v int32) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.on[v] = true
	for _, e := range t.g.funcs[v].out {
		w := t.g.edges[e].to
		if t.index[w] < 0 {
			t.visit(w)
			t.low[v] = min(t.low[v], t.low[w])
		} else if t.on[w] {
			t.low[v] = min(t.low[v], t.index[w])
		}
	}
	if t.low[v] != t.index[v] {
		return
	}
	var members []int32
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.on[w] = false
		members = append(members, w)
		if w == v {
			break
		}
	}
	slices.Sort(members)
	t.comps = append(t.comps, members)
}

// step is one node of a cycle's unrolling from one entry: a member, or a
// recursive call back to a member already in the unrolling.
type step struct {
	fn     int32
	parent int32 // index of the step it is called from, -1 for the entry
	via    int32 // the edge from the parent, -1 for the entry
	leaf   bool  // a recursive call: its cost is in the members' already
}

// unrolling lays out a cycle entered at entry: its members in depth-first
// order along the calls between them (each member once, below the member
// that first reaches it), and every other call between members as a leaf.
// A function that is no cycle is the entry alone, with a leaf for a call
// to itself.
func unrolling(g *graph, comp []int32, entry int32) []step {
	steps := []step{{fn: entry, parent: -1, via: -1}}
	seen := map[int32]bool{entry: true}
	var walk func(at int32)
	walk = func(at int32) {
		fn := steps[at].fn
		for _, e := range g.funcs[fn].out {
			to := g.edges[e].to
			if comp[to] != comp[fn] {
				continue
			}
			steps = append(steps, step{fn: to, parent: at, via: e, leaf: seen[to]})
			if !seen[to] {
				seen[to] = true
				walk(int32(len(steps) - 1))
			}
		}
	}
	walk(0)
	return steps
}
