package plotting

import (
	"iter"
	"sort"

	"github.com/proflens/proflens/compaction"
)

// topDown is a view (or a subtree of it) as a source: ids are view nodes.
type topDown struct {
	v     *compaction.View
	roots []int32
}

func (t *topDown) tops() []int32 { return positive(t.v, t.roots) }

func (t *topDown) kids(i int32) []int32 { return positive(t.v, t.v.Nodes[i].Children) }

func (t *topDown) item(i int32) Item {
	n := t.v.Nodes[i]
	return Item{Name: n.Name, Total: n.Total, Self: n.Self, Nodes: []int32{i}}
}

// positive returns the nodes of ids with a positive total, in order.
func positive(v *compaction.View, ids []int32) []int32 {
	out := make([]int32, 0, len(ids))
	for _, id := range ids {
		if v.Nodes[id].Total > 0 {
			out = append(out, id)
		}
	}
	return out
}

// bottomUp is the inverted graph of a view, built lazily: its top items are
// the compacted names that have self weight, and the children of an item
// are the compacted callers of the nodes it stands for, merged by name.
// Each item keeps cursors: a view node reached on the way up and the self
// weight that reached it.
type bottomUp struct {
	v     *compaction.View
	items []buItem
	top   []int32
	stop  map[int32]bool // the roots drawn: their callers are outside the picture
}

type buItem struct {
	name    string
	total   int64
	self    int64 // weight whose call path starts here (no caller)
	cursors []cursor
	kids    []int32
	built   bool
}

type cursor struct {
	node   int32
	weight int64
}

// newBottomUp groups every view node with self weight by name. Linear in the
// view's size.
func newBottomUp(v *compaction.View, roots []int32) *bottomUp {
	b := &bottomUp{v: v, stop: map[int32]bool{}}
	var cs []cursor
	for _, r := range roots {
		b.stop[r] = true
		for n := range subtree(v, r) {
			if s := v.Nodes[n].Self; s > 0 {
				cs = append(cs, cursor{n, s})
			}
		}
	}
	b.top = b.group(cs)
	return b
}

// subtree yields the nodes of r's subtree in pre-order.
func subtree(v *compaction.View, r int32) iter.Seq[int32] { return subtreeWhile(v, r, nil) }

// group merges cursors by their node's name into new items, returned by
// descending total, then name.
func (b *bottomUp) group(cs []cursor) []int32 {
	byName := map[string]int32{}
	var out []int32
	for _, c := range cs {
		name := b.v.Nodes[c.node].Name
		id, ok := byName[name]
		if !ok {
			id = int32(len(b.items))
			b.items = append(b.items, buItem{name: name})
			byName[name] = id
			out = append(out, id)
		}
		it := &b.items[id]
		it.total += c.weight
		if k := len(it.cursors); k > 0 && it.cursors[k-1].node == c.node {
			it.cursors[k-1].weight += c.weight
		} else {
			it.cursors = append(it.cursors, c)
		}
	}
	for _, id := range out {
		it := &b.items[id]
		// in display order, not by id: the same view made by other steps
		// draws the same
		sort.Slice(it.cursors, func(i, j int) bool { return b.v.Rank(it.cursors[i].node) < b.v.Rank(it.cursors[j].node) })
		it.cursors = mergeCursors(it.cursors)
	}
	sort.Slice(out, func(i, j int) bool {
		a, c := &b.items[out[i]], &b.items[out[j]]
		if a.total != c.total {
			return a.total > c.total
		}
		return a.name < c.name
	})
	return out
}

// mergeCursors sums the weights of adjacent cursors on the same node.
func mergeCursors(cs []cursor) []cursor {
	out := cs[:0]
	for _, c := range cs {
		if k := len(out); k > 0 && out[k-1].node == c.node {
			out[k-1].weight += c.weight
			continue
		}
		out = append(out, c)
	}
	return out
}

func (b *bottomUp) tops() []int32 { return b.top }

func (b *bottomUp) kids(i int32) []int32 {
	if b.items[i].built {
		return b.items[i].kids
	}
	var up []cursor
	var self int64
	for _, c := range b.items[i].cursors {
		if p := b.v.Parent(c.node); p >= 0 && !b.stop[c.node] {
			up = append(up, cursor{p, c.weight})
		} else {
			self += c.weight
		}
	}
	kids := b.group(up) // may grow b.items
	it := &b.items[i]
	it.kids, it.self, it.built = kids, self, true
	return kids
}

func (b *bottomUp) item(i int32) Item {
	it := &b.items[i]
	nodes := make([]int32, len(it.cursors))
	for k, c := range it.cursors {
		nodes[k] = c.node
	}
	return Item{Name: it.name, Total: it.total, Self: it.self, Nodes: nodes}
}
