package compaction

import (
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// This file holds the two test oracles of DESIGN.md §5, written for
// obviousness, not speed: a literal transcription of the paper's take-over
// rules and a plain recursive transcription of the group rule. Both work on
// compacted names as slices of name elements.

// elems returns the compacted name of call-tree node n at level g (a level
// below 1, which a compact all leaves on a node at level 1, shows as 1).
func elems(t *analysis.Tree, level []int32, n int32) []string {
	all := analysis.Split(t.Name(n), t.Profile.Lang)
	g := max(int(level[n]), 1)
	if g > len(all) {
		g = len(all)
	}
	return all[:g]
}

// isPrefix reports whether a is an element-wise prefix of b (or equal).
func isPrefix(a, b []string) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// literalComponents applies rules 1–3 of the paper literally: ▷ is the least
// relation closed under them, computed by iterating to a fixpoint over all
// pairs, with a virtual root (id n) as the roots' common parent and a name
// that is no one's prefix. It returns, per call-tree node, the smallest id of
// its connected component of ▷.
func literalComponents(t *analysis.Tree, level []int32) []int32 {
	n := t.Len()
	root := n
	name := make([][]string, n)
	parent := make([]int, n)
	for i := 0; i < n; i++ {
		name[i] = elems(t, level, int32(i))
		parent[i] = int(t.Parent[i])
		if parent[i] < 0 {
			parent[i] = root
		}
	}
	prefix := func(a, b int) bool { return a != root && isPrefix(name[a], name[b]) }
	rel := make([][]bool, n+1) // rel[a][b]: a ▷ b
	for a := range rel {
		rel[a] = make([]bool, n+1)
		rel[a][a] = true // rule 1
	}
	for changed := true; changed; {
		changed = false
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if rel[a][b] || !prefix(a, b) {
					continue
				}
				ok := rel[a][parent[b]] // rule 2
				for d := 0; d <= n && !ok; d++ {
					ok = rel[d][parent[a]] && rel[d][parent[b]] // rule 3
				}
				if ok {
					rel[a][b] = true
					changed = true
				}
			}
		}
	}
	uf := newUnionFind(n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if rel[a][b] {
				uf.union(a, b)
			}
		}
	}
	return uf.minimums()
}

type unionFind struct{ up []int }

func newUnionFind(n int) *unionFind {
	u := &unionFind{up: make([]int, n)}
	for i := range u.up {
		u.up[i] = i
	}
	return u
}

func (u *unionFind) find(a int) int {
	for u.up[a] != a {
		u.up[a] = u.up[u.up[a]]
		a = u.up[a]
	}
	return a
}

func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra < rb {
		u.up[rb] = ra
	} else {
		u.up[ra] = rb
	}
}

// minimums returns, per element, the smallest element of its set.
func (u *unionFind) minimums() []int32 {
	out := make([]int32, len(u.up))
	best := map[int]int{}
	for i := range u.up {
		r := u.find(i)
		if m, ok := best[r]; !ok || i < m {
			best[r] = i
		}
	}
	for i := range u.up {
		out[i] = int32(best[u.find(i)])
	}
	return out
}

// oGroup is one compacted node as the group-rule oracle computes it.
type oGroup struct {
	name    string
	members []int32 // ascending
	seeds   []int32
	parent  int // index into the oracle's result, -1 for a root
	total   int64
}

// groupOracle transcribes the group rule plainly: recursion from a virtual
// root, pairwise prefix tests with union-find for the components, and
// absorption repeated until nothing changes.
func groupOracle(t *analysis.Tree, level []int32, value int) []oGroup {
	var out []oGroup
	var rec func(parent int, kids []int32)
	rec = func(parent int, kids []int32) {
		uf := newUnionFind(len(kids))
		for i := range kids {
			for j := range kids {
				a, b := elems(t, level, kids[i]), elems(t, level, kids[j])
				if isPrefix(a, b) || isPrefix(b, a) {
					uf.union(i, j)
				}
			}
		}
		comps := map[int][]int32{}
		var keys []int
		for i, k := range kids {
			r := uf.find(i)
			if _, ok := comps[r]; !ok {
				keys = append(keys, r)
			}
			comps[r] = append(comps[r], k)
		}
		for _, r := range keys {
			seeds := comps[r]
			short := elems(t, level, seeds[0])
			for _, s := range seeds {
				if e := elems(t, level, s); len(e) < len(short) {
					short = e
				}
			}
			in := map[int32]bool{}
			for _, s := range seeds {
				in[s] = true
			}
			for grew := true; grew; {
				grew = false
				for m := range in {
					t.Children(m, func(c int32) {
						if !in[c] && isPrefix(short, elems(t, level, c)) {
							in[c] = true
							grew = true
						}
					})
				}
			}
			g := oGroup{name: strings.Join(short, ""), seeds: seeds, parent: parent}
			for m := range in {
				g.members = append(g.members, m)
			}
			slices.Sort(g.members)
			for _, s := range seeds {
				g.total += t.Total[value][s]
			}
			out = append(out, g)
			var next []int32
			for _, m := range g.members {
				t.Children(m, func(c int32) {
					if !in[c] {
						next = append(next, c)
					}
				})
			}
			rec(len(out)-1, next)
		}
	}
	rec(-1, t.Roots)
	return out
}
