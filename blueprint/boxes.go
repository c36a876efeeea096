package blueprint

import (
	"cmp"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// Of returns the Profiling Blueprint of v, by function or by context.
//
// By context a box is a node of v; by function a box is a name of v's
// nodes (at full names, a function; at a coarser level, the group the
// level names). The start-up chain (the view nodes whose members are all
// in the call tree's start-up chains, analysis.Tree.Startup, below roots
// of the same kind) has no box: the boxes start at the program's entry.
//
// A box's height is the value of the samples with it on the stack, counted
// once per stack. Its width is its count from c (the tree's counts; nil
// Calls for none): for entries (calls), the calls into it from another box
// and, by function, its calls of itself at its full name (a recursive fib
// that ran 1,973 times is 1,973 calls wide); for inclusive counts (objects,
// contentions), once per stack as its height. first (per call-tree node,
// or nil) orders callees by first call, else they go heaviest first.
// mutations (per frame id, or nil) shades the boxes (a box combines its
// functions'). Time is linear in the call tree and the view, plus sorting
// the edges (by function, the drawing tree takes O(E log E) more).
func Of(v *compaction.View, c analysis.Counts, first []int64, mutations []Mutation, by By) *Blueprint {
	b := &Blueprint{By: by, Value: valueType(v), Counts: c.Source, Timed: first != nil}
	if c.Calls == nil {
		b.Counts = ""
	}
	w := walkOf(v)
	o := &builder{b: b, v: v, w: w, calls: c.Calls, first: first, entries: c.Calls != nil && analysis.Noun(c.Source) == "calls",
		edges: map[[2]int32]int32{}, cycles: map[cycleKey]int32{}}
	if first != nil && len(first) != len(w.parent) {
		o.first, b.Timed = nil, false
	}
	o.boxes()
	o.pass(mutations)
	if by == ByFunction {
		o.drawFunctions()
	} else {
		o.drawContexts()
	}
	o.order()
	return b
}

// builder is the state of one Of.
type builder struct {
	b       *Blueprint
	v       *compaction.View
	w       *walk
	calls   []int64 // per walk node, or nil
	first   []int64 // per walk node, or nil
	entries bool    // calls count entries, not objects or contentions on call paths
	box     []int32 // per walk node: its box, -1 in the start-up chain
	ofView  []int32 // per view node: its box, -1 in the start-up chain
	root    []bool  // per box: entered from no box
	edges   map[[2]int32]int32
	cycles  map[cycleKey]int32
}

type cycleKey struct{ box, fn int32 }

// boxes makes the boxes: one per view node outside the start-up chain (by
// context) or one per name (by function), and the start-up chain.
func (o *builder) boxes() {
	v, b := o.v, o.b
	startup := o.startupNodes()
	o.ofView = make([]int32, len(v.Nodes))
	byName := map[string]int32{}
	for _, vn := range v.Preorder() {
		o.ofView[vn] = -1
		if startup[vn] {
			continue
		}
		n := v.Nodes[vn]
		i, ok := byName[n.Name]
		if !ok || b.By != ByFunction {
			i = int32(len(b.Boxes))
			byName[n.Name] = i
			b.Boxes = append(b.Boxes, Box{Name: n.Name, Node: vn, Parent: -1, First: -1})
		}
		bx := &b.Boxes[i]
		bx.Nodes = append(bx.Nodes, vn)
		if n.Total > v.Nodes[bx.Node].Total {
			bx.Node = vn
		}
		o.ofView[vn] = i
	}
	for i := range b.Boxes {
		slices.Sort(b.Boxes[i].Nodes)
	}
	o.root = make([]bool, len(b.Boxes))
	o.box = make([]int32, len(o.w.parent))
	for m, vn := range o.w.view {
		o.box[m] = o.ofView[vn]
	}
}

// startupNodes returns the view's start-up marks (compaction.View.Startup)
// and records the chain's heaviest path and total.
func (o *builder) startupNodes() []bool {
	v := o.v
	mark := v.Startup()
	for _, r := range v.Roots {
		if mark[r] {
			o.b.StartupTotal += v.Nodes[r].Total
		}
	}
	o.b.Startup = v.StartupChain(mark)
	return mark
}

// pass reads every walk node once, in pre-order, keeping the boxes on the
// current path: heights and widths, edges, cycles, first calls and
// mutations.
func (o *builder) pass(mutations []Mutation) {
	w, b := o.w, o.b
	onPath := make([]int32, len(b.Boxes))
	muts := make([][3]int, len(b.Boxes)) // per box: members that mutate, that are pure, all
	var open []int32
	for m := range int32(len(w.parent)) {
		for k := len(open) - 1; k >= 0 && m >= open[k]+w.size[open[k]]; k-- {
			onPath[o.box[open[k]]]--
			open = open[:k]
		}
		bx := o.box[m]
		if bx < 0 {
			continue
		}
		o.node(m, onPath[bx] == 0)
		if mutations != nil && w.frame != nil {
			k := mutations[w.frame[m]]
			muts[bx][0] += b2i(k == Mutates)
			muts[bx][1] += b2i(k == Pure)
			muts[bx][2]++
		}
		onPath[bx]++
		open = append(open, m)
	}
	for i, k := range muts {
		switch {
		case k[0] > 0:
			b.Boxes[i].Mutates = Mutates
		case k[2] > 0 && k[1] == k[2]:
			b.Boxes[i].Mutates = Pure
		}
	}
}

// node adds walk node m to its box, its edge and its cycle; outer says no
// node of its box is above it.
func (o *builder) node(m int32, outer bool) {
	w := o.w
	bx := o.box[m]
	box := &o.b.Boxes[bx]
	cm, fm := o.count(m), o.firstOf(m)
	box.First = minFirst(box.First, fm)
	p := w.parent[m]
	pb := int32(-1)
	if p >= 0 {
		pb = o.box[p]
	}
	if outer {
		box.Total += w.total[m]
		if !o.entries {
			box.Calls += cm
		}
	}
	direct := p >= 0 && w.fn[m] >= 0 && w.fn[p] == w.fn[m]
	if o.entries && (pb != bx || o.b.By == ByFunction && direct) {
		box.Calls += cm
	}
	rec := w.rec[m]
	switch {
	case pb < 0:
		o.root[bx] = true
		box.Startup = box.Startup || p >= 0
	case pb != bx:
		e := o.edge(pb, bx)
		if o.entries || outer {
			e.Calls += cm
		}
		if outer {
			e.Total += w.total[m]
		}
		e.First = minFirst(e.First, fm)
		e.Back = e.Back || !outer || rec >= 0
		e.Recursive = e.Recursive || rec >= 0
	}
	if rec >= 0 && o.box[rec] >= 0 {
		o.recursion(m, pb)
	}
}

// recursion adds the call back m (a call of a function already on the
// stack) to its cycle and, for a call inside one box or by context, to the
// crossing edge from its caller's box back to the box it calls again.
func (o *builder) recursion(m, pb int32) {
	w, bx, back := o.w, o.box[m], o.box[o.w.rec[m]]
	from := pb
	if from < 0 {
		from = bx
	}
	if o.b.By == ByContext || pb == bx { // by function, a call from another box is its edge already
		e := o.edge(from, back)
		if o.entries {
			e.Calls += o.count(m)
		}
		e.First = minFirst(e.First, o.firstOf(m))
		e.Back, e.Recursive = true, true
	}
	key := cycleKey{o.box[w.outer[m]], w.fn[m]}
	i, ok := o.cycles[key]
	if !ok {
		i = int32(len(o.b.Cycles))
		o.cycles[key] = i
		o.b.Cycles = append(o.b.Cycles, Cycle{Box: key.box, Function: w.names[key.fn],
			Path: o.path(w.rec[m], m), Depth: int(w.depth[m] - w.depth[w.rec[m]])})
	}
	if o.entries {
		o.b.Cycles[i].Calls += o.count(m)
	}
}

// path returns the boxes of the nodes below node top down to node m, a
// box once however many nodes of it follow each other.
func (o *builder) path(top, m int32) []int32 {
	var out []int32
	for n := m; n != top; n = o.w.parent[n] {
		if bx := o.box[n]; len(out) == 0 || out[len(out)-1] != bx {
			out = append(out, bx)
		}
	}
	slices.Reverse(out)
	return out
}

// edge returns the edge from box from to box to, made on first use.
func (o *builder) edge(from, to int32) *Edge {
	k := [2]int32{from, to}
	i, ok := o.edges[k]
	if !ok {
		i = int32(len(o.b.Edges))
		o.edges[k] = i
		o.b.Edges = append(o.b.Edges, Edge{From: from, To: to, First: -1})
	}
	return &o.b.Edges[i]
}

func (o *builder) count(m int32) int64 {
	if o.calls == nil {
		return 0
	}
	return o.calls[m]
}

func (o *builder) firstOf(m int32) int64 {
	if o.first == nil {
		return -1
	}
	return o.first[m]
}

// minFirst returns the earlier of two first-call times, -1 unknown.
func minFirst(x, y int64) int64 {
	if x < 0 || y >= 0 && y < x {
		return y
	}
	return x
}

// firstOrder orders first-call times, unknown (-1) last.
func firstOrder(x, y int64) int {
	if (x < 0) != (y < 0) {
		return cmp.Compare(y, x) // the known one first
	}
	return cmp.Compare(x, y)
}

func b2i(ok bool) int {
	if ok {
		return 1
	}
	return 0
}

// valueType returns the view's value type, or plain samples for a view
// without a call tree.
func valueType(v *compaction.View) analysis.ValueType {
	if v.Tree != nil && v.Tree.Profile != nil && v.Value < len(v.Tree.Profile.ValueTypes) {
		return v.Unit()
	}
	return analysis.ValueType{Type: "samples", Unit: "count"}
}
