package blueprint

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// walk is what Of reads, node by node in pre-order: a view's call tree, or
// the view's own nodes when it has none (each then its own member).
type walk struct {
	parent []int32 // -1 for a root
	size   []int32 // nodes in the subtree, the node included
	depth  []int32
	total  []int64 // inclusive value in the view's value type
	view   []int32 // the view node each belongs to
	fn     []int32 // function id: nodes with one full name share it; -1 for a placeholder
	names  []string
	frame  []int32 // frame ids (for mutations); nil without a call tree
	// rec is, per node, the nearest ancestor of the same function (-1 for
	// none), and outer the outermost one.
	rec, outer []int32
}

// walkOf returns the walk of v.
func walkOf(v *compaction.View) *walk {
	var w *walk
	if t := v.Tree; t != nil {
		w = &walk{parent: t.Parent, size: t.Size, depth: t.Depth, total: t.Total[v.Value], frame: t.Frame,
			view: make([]int32, t.Len())}
		for m := range w.view {
			w.view[m] = v.NodeOf(int32(m))
		}
		w.functions(func(m int32) string { return t.Name(m) })
	} else {
		w = viewWalk(v)
		w.functions(func(m int32) string { return v.Nodes[w.view[m]].Name })
	}
	w.recursion()
	return w
}

// viewWalk is the walk of a view without a call tree.
func viewWalk(v *compaction.View) *walk {
	pre := v.Preorder()
	w := &walk{}
	at := make(map[int32]int32, len(pre)) // view node → walk index
	for i, vn := range pre {
		at[vn] = int32(i)
		p, d := int32(-1), int32(0)
		if vp := v.Parent(vn); vp >= 0 {
			p = at[vp]
			d = w.depth[p] + 1
		}
		w.parent, w.depth = append(w.parent, p), append(w.depth, d)
		w.total, w.view = append(w.total, v.Nodes[vn].Total), append(w.view, vn)
	}
	w.size = make([]int32, len(pre))
	for i := len(pre) - 1; i >= 0; i-- {
		w.size[i]++
		if p := w.parent[i]; p >= 0 {
			w.size[p] += w.size[i]
		}
	}
	return w
}

// functions gives each node the id of its full name, -1 for placeholders
// (analysis.IsPlaceholder), which name no one function.
func (w *walk) functions(name func(m int32) string) {
	ids := map[string]int32{}
	w.fn = make([]int32, len(w.parent))
	for m := range w.fn {
		s := name(int32(m))
		id, ok := ids[s]
		if !ok {
			id = int32(len(w.names))
			if analysis.IsPlaceholder(s) {
				id = -1
			} else {
				w.names = append(w.names, s)
			}
			ids[s] = id
		}
		w.fn[m] = id
	}
}

// recursion fills rec and outer: for each node, the nearest and the
// outermost ancestor of the same function. It keeps, per function, the
// innermost node of it on the current path. Time is linear in the nodes.
func (w *walk) recursion() {
	n := len(w.parent)
	w.rec, w.outer = make([]int32, n), make([]int32, n)
	last := make([]int32, len(w.names))
	for i := range last {
		last[i] = -1
	}
	var open []int32
	for m := range int32(n) {
		for k := len(open) - 1; k >= 0 && m >= open[k]+w.size[open[k]]; k-- {
			if f := w.fn[open[k]]; f >= 0 {
				last[f] = w.rec[open[k]]
			}
			open = open[:k]
		}
		w.rec[m], w.outer[m] = -1, -1
		if f := w.fn[m]; f >= 0 {
			if r := last[f]; r >= 0 {
				w.rec[m], w.outer[m] = r, r
				if w.outer[r] >= 0 {
					w.outer[m] = w.outer[r]
				}
			}
			last[f] = m
		}
		open = append(open, m)
	}
}
