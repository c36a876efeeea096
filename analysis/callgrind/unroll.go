package callgrind

import (
	"container/heap"
	"fmt"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// How a call graph becomes a call tree.
//
// A callgrind file gives, per function, its self cost and, per callee, the
// number of calls and their inclusive cost; it does not say how the cost
// of a function called from several places divides among its callers'
// call paths. The tree is unrolled from the graph top-down under one
// stated assumption, the one gprof and speedscope's importer make: every
// call of a function spends its cost among its self and its callees in the
// same proportions.
//
//   - Roots. The cycles (strongly connected components, see cycles.go) that
//     no call enters are roots, entered once. A cycle whose cost is more
//     than its callers' calls account for (its code ran with no recorded
//     caller) is also a root, for the rest.
//   - Below a node. A node is one entry into a cycle with a budget: an
//     inclusive cost per event (a root's cost, or its share of a call's
//     cost) and a number of calls. The budget is divided, per event,
//     exactly and in integers (split), among the self costs of the cycle's
//     members and the costs of the calls that leave the cycle, in
//     proportion to the whole graph's figures. A call that leaves the cycle
//     becomes a child node with its share as budget. Call counts are scaled
//     by the node's calls over all the calls entering the cycle, rounded.
//   - Recursion. Inside a cycle, callgrind's inclusive cost of a call
//     overlaps its caller's (a recursive call runs inside the call that
//     made it), so those costs are not used: each member appears once,
//     below the member that first reaches it, and every other call between
//     members is a leaf with its call count and no cost, standing for the
//     recursion (the Profiling Blueprint draws it as an edge back up).
//
// Where a function is reached along one call path only, the unrolled tree
// is exact: its node's total is callgrind_annotate's inclusive cost of the
// function, and the count of each of its callees is the file's calls=. In
// particular the roots and their callees are always exact. Elsewhere the
// tree is an estimate that keeps every total: what one split rounds away
// from a function's self cost or a call's cost is carried to its next
// split (splitter.split), so that the nodes of a function add up to its
// self cost exactly, as callgrind_annotate gives it, and to its inclusive
// cost; the roots add up to the file's total cost.
//
// A call graph can unroll into exponentially many call paths. Nodes are
// expanded heaviest first (by the first event), and past maxPaths nodes (or
// the load's max-samples, or its max-stack-frames) the rest are not
// expanded: such a node keeps its whole budget as self cost, and the
// profile says so in a warning.
const maxPaths = 1_000_000

// unroll builds the profile of g (see above): one sample per call path,
// with its self cost per event and its call count.
func unroll(in *analysis.Input, g *graph) *analysis.Profile {
	types := make([]analysis.ValueType, 0, len(g.events)+1)
	for _, e := range g.events {
		types = append(types, analysis.ValueType{Type: e, Unit: "count"})
	}
	b := in.NewBuilder(append(types, Calls)...)
	l := in.Limits()
	u := &unroller{g: g, b: b, max: int(min(maxPaths, l.Samples)), maxFrames: int(l.StackFrames),
		frames: make([]int32, len(g.funcs)), values: make([]int64, len(types)+1)}
	for i := range u.frames {
		u.frames[i] = -1
	}
	u.cycles, u.comp = cycles(g)
	u.roots()
	for u.queue.Len() > 0 && b.Err() == nil {
		u.expand(heap.Pop(&u.queue).(*entry))
	}
	u.warn()
	b.Note("callgrind gives a call graph, not stacks: the call tree is unrolled from it assuming, as gprof does, " +
		"that every call of a function divides its cost among its self and its callees in the same proportions; " +
		"a function called along several paths gets estimated shares on each, and its self cost, its inclusive cost and the totals stay exact")
	return b.Finish()
}

// unroller is the state of one unrolling.
type unroller struct {
	g      *graph
	b      *analysis.Builder
	cycles []cycle
	comp   []int32
	plans  map[int32][]step // per entry function, its cycle's unrolling
	queue  entries
	seq    int64
	used   int // nodes made plus entries waiting
	max    int
	folded int
	frames []int32 // per function, its frame id, -1 until interned
	values []int64
	path   []int32
	// usedFrames bounds the stack frames of the nodes made and waiting,
	// which must stay within the load's max-stack-frames.
	usedFrames, maxFrames int
	splitter
	parts, out [][]int64 // buffers of shares
	col, got   []int64
	keys       []int32     // per part of a split: its function (self cost), or len(funcs) + its edge
	carried    []float64   // per part of a split, its carry (split)
	carry      [][]float64 // per event, per function and edge: what the splits so far rounded away
}

// entry is a call path entering a cycle, waiting to be expanded.
type entry struct {
	parent int32   // stack id of the caller's node, -1 for a root
	fn     int32   // the function entered
	budget []int64 // inclusive cost per event
	calls  int64
	depth  int   // of the node it makes: 1 for a root
	scale  ratio // of the counts of the calls made below: calls over the calls entering the cycle
	seq    int64
}

// roots queues the roots: the cycles no call enters, and the rest of the
// cost of cycles that their callers' calls do not account for.
func (u *unroller) roots() {
	for _, c := range u.cycles {
		if c.inCalls == 0 && isZero(c.inCost) {
			u.push(&entry{parent: -1, fn: c.members[0], budget: c.cost, calls: 1, scale: one, depth: 1})
			continue
		}
		rest := make([]int64, len(c.cost))
		for i := range rest {
			rest[i] = max(0, c.cost[i]-c.inCost[i])
		}
		if !isZero(rest) {
			u.push(&entry{parent: -1, fn: c.members[0], budget: rest, calls: 1, scale: share(rest, c.cost), depth: 1})
		}
	}
}

// share is the ratio of a part of a cost to the whole, in the first event
// where the whole is not zero.
func share(part, whole []int64) ratio {
	for i := range whole {
		if whole[i] > 0 {
			return ratio{part[i], whole[i]}
		}
	}
	return ratio{0, 1}
}

func isZero(x []int64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

func (u *unroller) push(e *entry) {
	e.seq = u.seq
	u.seq++
	u.used++
	u.usedFrames += e.depth
	heap.Push(&u.queue, e)
}

// expand makes the nodes of one entry into a cycle and queues the calls
// that leave it; past the budget of nodes or of stack frames (counted
// high: every node as deep as the deepest could be), the entry becomes one
// node.
func (u *unroller) expand(e *entry) {
	plan := u.plan(e.fn)
	leaving := 0 // calls leaving the cycle: entries to queue
	for _, s := range plan {
		if !s.leaf {
			for _, ed := range u.g.funcs[s.fn].out {
				if u.comp[u.g.edges[ed].to] != u.comp[e.fn] {
					leaving++
				}
			}
		}
	}
	frames := len(plan)*(e.depth+len(plan)) - e.depth // the plan's nodes, less the entry's reservation
	if u.used-1+len(plan)+leaving > u.max || u.usedFrames+frames+leaving*(e.depth+len(plan)) > u.maxFrames {
		u.folded++
		u.node(e.parent, e.fn, e.budget, e.calls)
		return
	}
	u.used += len(plan) - 1
	u.usedFrames += frames
	u.unrollCycle(e, plan)
}

// unrollCycle makes the nodes of plan with their shares of e's budget, and
// queues the calls leaving the cycle.
func (u *unroller) unrollCycle(e *entry, plan []step) {
	shares, scale := u.shares(e.budget, plan), e.scale
	nodes := make([]int32, len(plan)) // stack ids
	depth := make([]int, len(plan))
	k := 0 // next share
	for i, s := range plan {
		parent, calls := e.parent, e.calls
		depth[i] = e.depth
		if s.parent >= 0 {
			parent, calls = nodes[s.parent], scale.of(u.g.edges[s.via].calls)
			depth[i] = depth[s.parent] + 1
		}
		self := make([]int64, len(e.budget))
		if !s.leaf {
			self = shares[k]
			k++
		} else if calls == 0 {
			continue
		}
		nodes[i] = u.node(parent, s.fn, self, calls)
		if s.leaf {
			continue
		}
		for _, ed := range u.g.funcs[s.fn].out {
			if u.comp[u.g.edges[ed].to] == u.comp[e.fn] {
				continue
			}
			to := u.g.edges[ed].to
			budget, n := shares[k], scale.of(u.g.edges[ed].calls)
			k++
			sc := ratio{n, u.cycles[u.comp[to]].inCalls}
			if u.g.edges[ed].inline {
				sc = scale // inlined code runs as often as its function on this path
			}
			if n != 0 || !isZero(budget) {
				u.push(&entry{parent: nodes[i], fn: to, budget: budget, calls: n, scale: sc, depth: depth[i] + 1})
			}
		}
	}
}

// shares divides budget among the parts of an unrolling, per event: for
// each member in plan order, its self cost, then each call leaving the
// cycle from it. It returns one cost vector per part.
func (u *unroller) shares(budget []int64, plan []step) [][]int64 {
	parts, keys := u.parts[:0], u.keys[:0]
	for _, s := range plan {
		if s.leaf {
			continue
		}
		parts, keys = append(parts, u.g.funcs[s.fn].self), append(keys, s.fn)
		for _, ed := range u.g.funcs[s.fn].out {
			if u.comp[u.g.edges[ed].to] != u.comp[s.fn] {
				parts, keys = append(parts, u.g.edges[ed].cost), append(keys, int32(len(u.g.funcs))+ed)
			}
		}
	}
	if u.carry == nil {
		u.carry = make([][]float64, len(budget))
		for v := range u.carry {
			u.carry[v] = make([]float64, len(u.g.funcs)+len(u.g.edges))
		}
	}
	carry := slices.Grow(u.carried[:0], len(parts))[:len(parts)]
	nv := len(budget)
	flat := make([]int64, len(parts)*nv) // the shares, part after part: what the queued calls keep
	out := slices.Grow(u.out[:0], len(parts))[:len(parts)]
	for i := range out {
		out[i] = flat[i*nv : (i+1)*nv : (i+1)*nv]
	}
	col, got := slices.Grow(u.col[:0], len(parts))[:len(parts)], slices.Grow(u.got[:0], len(parts))[:len(parts)]
	for v := range budget {
		for i := range parts {
			col[i], carry[i] = parts[i][v], u.carry[v][keys[i]]
		}
		u.split(budget[v], col, got, carry)
		for i, x := range got {
			out[i][v], u.carry[v][keys[i]] = x, carry[i]
		}
	}
	u.parts, u.keys, u.out, u.col, u.got, u.carried = parts, keys, out, col, got, carry
	return out
}

// plan returns the unrolling of fn's cycle entered at fn.
func (u *unroller) plan(fn int32) []step {
	if p, ok := u.plans[fn]; ok {
		return p
	}
	if u.plans == nil {
		u.plans = map[int32][]step{}
	}
	p := unrolling(u.g, u.comp, fn)
	u.plans[fn] = p
	return p
}

// node adds the call path of parent (a stack id, -1 for none) followed by
// fn, with its self cost and call count, and returns its stack id.
func (u *unroller) node(parent, fn int32, self []int64, calls int64) int32 {
	if u.frames[fn] < 0 {
		u.frames[fn] = u.b.Frame(u.g.funcs[fn].frame)
	}
	u.path = u.path[:0]
	if parent >= 0 {
		u.path = append(u.path, u.b.Profile().Stacks.At(parent)...)
	}
	u.path = append(u.path, u.frames[fn])
	id := u.b.Stack(u.path)
	copy(u.values, self)
	u.values[len(self)] = calls
	u.b.Add(id, u.values, 0, false, u.g.thread, nil)
	return id
}

// warn records what the profile should say: the entries left unexpanded,
// and totals that disagree with the file's.
func (u *unroller) warn() {
	if u.folded > 0 {
		u.b.Warn(fmt.Sprintf("the call graph unrolls into more call paths than a profile holds here (%d paths, %d stack frames): %d calls, the lightest, were not expanded and count their callees' cost as their own", u.max, u.maxFrames, u.folded))
	}
	if u.g.wrapped {
		u.b.Warn("the file's totals have counts past 2^63: they wrapped below zero when written; they are read as the negative numbers they stand for, and the cost lines give the totals")
	}
	if t := u.g.totals; t != nil {
		self := make([]int64, len(u.g.events))
		for _, f := range u.g.funcs {
			add(self, f.self)
		}
		for i := range t {
			if t[i] != self[i] {
				u.b.Warn(fmt.Sprintf("the file's totals give %d %s, its cost lines %d", t[i], u.g.events[i], self[i]))
			}
		}
	}
}

// entries is a heap of entries, heaviest first (by the first event), then
// in the order they were made.
type entries []*entry

func (h entries) Len() int { return len(h) }
func (h entries) Less(i, j int) bool {
	a, b := h[i], h[j]
	if len(a.budget) > 0 && a.budget[0] != b.budget[0] {
		return a.budget[0] > b.budget[0]
	}
	return a.seq < b.seq
}
func (h entries) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entries) Push(x any)   { *h = append(*h, x.(*entry)) }
func (h *entries) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
