package compaction

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// index interns every compacted name a tree can show. A compacted name is a
// prefix of a frame's name elements; each distinct prefix gets an id, so that
// "cname(A) is an element-wise prefix of cname(B)" is one array lookup:
// with d = depth[a], a is a prefix of b iff depth[b] >= d and the prefix of
// b's frame at level d is a. It is built once per tree and shared, read-only,
// by every state of that tree.
type index struct {
	tree   *analysis.Tree
	off    []int32  // per frame: start of its prefix ids in pre
	pre    []int32  // pre[off[f]+g-1]: id of the first g elements of frame f
	depth  []int32  // per prefix id: number of elements
	parent []int32  // per prefix id: the prefix one element shorter, -1 at depth 1
	str    []string // per prefix id: the displayed compacted name
	rank   []int32  // per prefix id: the rank of str among the names (equal names, equal ranks)
	path   []uint64 // per call-tree node: hash of its path of full names from the root
}

// prefixKey names a prefix by the prefix one element shorter and its last
// element.
type prefixKey struct{ parent, elem int32 }

// newIndex interns the prefixes of every frame of t; every frame has an
// element at least (analysis.Split). Time is linear in the total number of
// name elements. It gives up when ctx is done (pathHashes).
func newIndex(ctx context.Context, t *analysis.Tree) (*index, error) {
	ix := &index{tree: t, off: make([]int32, len(t.Names.Elems)+1)}
	ids := make(map[prefixKey]int32)
	var b strings.Builder
	for f, elems := range t.Names.Elems {
		ix.off[f] = int32(len(ix.pre))
		p := int32(-1)
		for g, e := range elems {
			k := prefixKey{p, e}
			id, ok := ids[k]
			if !ok {
				id = int32(len(ix.depth))
				ids[k] = id
				ix.depth = append(ix.depth, int32(g+1))
				ix.parent = append(ix.parent, p)
				b.Reset()
				if p >= 0 {
					b.WriteString(ix.str[p])
				}
				b.WriteString(t.Names.Strings[e])
				ix.str = append(ix.str, b.String())
			}
			ix.pre = append(ix.pre, id)
			p = id
		}
	}
	ix.off[len(t.Names.Elems)] = int32(len(ix.pre))
	ix.rank = ranks(ix.str)
	ix.path = make([]uint64, t.Len())
	if err := pathHashes(ctx, t, ix.path); err != nil {
		return nil, err
	}
	return ix, nil
}

// ranks returns the rank of each string in sorted order, equal strings
// sharing one, so that comparing ranks is comparing strings.
func ranks(str []string) []int32 {
	order := make([]int32, len(str))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(str[a], str[b]) })
	rank := make([]int32, len(str))
	r := int32(0)
	for k, i := range order {
		if k > 0 && str[i] != str[order[k-1]] {
			r++
		}
		rank[i] = r
	}
	return rank
}

// levels returns the number of name elements of frame f.
func (ix *index) levels(f int32) int32 { return ix.off[f+1] - ix.off[f] }

// cname returns the compacted name id of frame f at level g (a level beyond
// the name's length means the full name; levels below 1 count as 1).
func (ix *index) cname(f, g int32) int32 {
	n := ix.off[f+1] - ix.off[f]
	if g > n {
		g = n
	}
	if g < 1 {
		g = 1
	}
	return ix.pre[ix.off[f]+g-1]
}

// prefixAt returns the id of the first d elements of the compacted name of
// frame f at level g (below 1 counts as 1), or -1 when that name has fewer
// than d elements.
func (ix *index) prefixAt(f, g, d int32) int32 {
	if d > max(g, 1) || d > ix.off[f+1]-ix.off[f] {
		return -1
	}
	return ix.pre[ix.off[f]+d-1]
}

// order compares two nodes, given by total and name id, in sibling order:
// by descending total, then name.
func (ix *index) order(ta int64, na int32, tb int64, nb int32) int {
	if ta != tb {
		return cmp.Compare(tb, ta)
	}
	return cmp.Compare(ix.rank[na], ix.rank[nb])
}

// startsWith reports whether the compacted name id c starts with the
// compacted name id n, element-wise.
func (ix *index) startsWith(c, n int32) bool {
	for ix.depth[c] > ix.depth[n] {
		c = ix.parent[c]
	}
	return c == n
}
