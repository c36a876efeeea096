package plotting

import (
	"container/heap"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestBudgetExact: a root with 40 children drawn on a budget of m nodes
// draws exactly m (the root, m-2 children and one "+N more" mark) until
// everything fits, 41 nodes without a mark.
func TestBudgetExact(t *testing.T) {
	v := wideView(40)
	for m := 2; m <= 45; m++ {
		pic, err := Draw(v, Options{Layout: LayoutFlame, MaxNodes: m})
		if err != nil {
			t.Fatal(err)
		}
		want, folded := min(m, 41), max(40-(m-2), 0)
		if m >= 41 {
			folded = 0
		}
		if pic.Drawn != want || pic.Folded != folded {
			t.Errorf("MaxNodes %d: %d drawn, %d folded; want %d drawn, %d folded", m, pic.Drawn, pic.Folded, want, folded)
		}
		title := fmt.Sprintf(" · %d drawn</text>", want)
		if folded > 0 {
			title = fmt.Sprintf(" · %d drawn, %d folded</text>", want, folded)
		}
		if !strings.Contains(string(pic.SVG), title) {
			t.Errorf("MaxNodes %d: the title does not end with %q", m, title)
		}
	}
}

// drawnCount counts the items a selection of in draws: its nodes, and one
// mark for each parent (the tops included) with a child left out. It is
// computed from the source alone, not from the selection's bookkeeping.
func drawnCount(src source, in map[int32]bool) int {
	n := 0
	marked := func(ids []int32) {
		for _, id := range ids {
			if !in[id] {
				n++
				return
			}
		}
	}
	marked(src.tops())
	for id := range in {
		n++
		marked(src.kids(id))
	}
	return n
}

// TestBudgetFull checks on random views that a selection stops only when it
// must: it draws at most max items, and the heaviest node left out (a top,
// or a child of a drawn node) is lighter than the weight rule or would take
// the picture over max, counting the mark it would add or spare.
func TestBudgetFull(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	for i := 0; i < 300; i++ {
		v := randomView(r, 10+r.Intn(300))
		var src source = &topDown{v: v, roots: v.Roots}
		if i%2 == 1 {
			src = newBottomUp(v, v.Roots)
		}
		m, minW := 2+r.Intn(60), int64(1+r.Intn(3))
		s := choose(src, m, minW)
		if n := drawnCount(src, s.in); n > m {
			t.Fatalf("view %d, max %d: %d items drawn", i, m, n)
		}
		c, ok := heaviestLeftOut(src, s.in)
		if !ok || c.total < minW {
			continue
		}
		with := map[int32]bool{c.id: true}
		for id := range s.in {
			with[id] = true
		}
		if n := drawnCount(src, with); n <= m {
			t.Fatalf("view %d, max %d: %s (total %d) was left out, yet with it %d items fit", i, m, c.name, c.total, n)
		}
	}
}

// heaviestLeftOut returns the heaviest node not in the selection whose
// parent is (or that is a top), in the order the selection takes them.
func heaviestLeftOut(src source, in map[int32]bool) (candidate, bool) {
	h := &candidates{src: src}
	push := func(ids []int32, parent int32) {
		for _, id := range ids {
			if !in[id] {
				h.push(id, parent)
			}
		}
	}
	push(src.tops(), -1)
	for id := range in {
		push(src.kids(id), id)
	}
	if h.Len() == 0 {
		return candidate{}, false
	}
	return heap.Pop(h).(candidate), true
}

// TestMinShare: a kind's weight rule folds the nodes lighter than its
// share of the picture: the tree (1%) folds the children of weight 1 out of
// 1000 or so that the icicle (half a pixel of 1200) draws, and its title
// counts them.
func TestMinShare(t *testing.T) {
	for _, small := range []int{1, 5} {
		root := &tnode{name: "main", kids: []*tnode{{name: "big", self: 1000}}}
		for i := range small {
			root.kids = append(root.kids, &tnode{name: fmt.Sprint("small", i), self: 1})
		}
		v := makeView(root)
		for _, c := range []struct {
			layout        string
			drawn, folded int
		}{{LayoutTree, 3, small}, {LayoutFlame, 2 + small, 0}} {
			pic, err := Draw(v, Options{Layout: c.layout})
			if err != nil {
				t.Fatal(err)
			}
			title := fmt.Sprintf(" · %d drawn</text>", c.drawn)
			if c.folded > 0 {
				title = fmt.Sprintf(" · %d drawn, %d folded</text>", c.drawn, c.folded)
			}
			if pic.Drawn != c.drawn || pic.Folded != c.folded || !strings.Contains(string(pic.SVG), title) {
				t.Errorf("%s, %d small: %d drawn, %d folded; want %d, %d and a title ending %q",
					c.layout, small, pic.Drawn, pic.Folded, c.drawn, c.folded, title)
			}
		}
	}
}

// TestByteBudgetScales: a node budget above the default raises the byte
// budget in proportion, so a picture whose bytes bound it at the default
// grows with MaxNodes.
func TestByteBudgetScales(t *testing.T) {
	v := longNames(3000)
	small, err := Draw(v, Options{Layout: LayoutFlame})
	if err != nil {
		t.Fatal(err)
	}
	big, err := Draw(v, Options{Layout: LayoutFlame, MaxNodes: 2 * DefaultMaxNodes})
	if err != nil {
		t.Fatal(err)
	}
	if len(big.SVG) <= DefaultMaxBytes || len(big.SVG) > 2*DefaultMaxBytes || big.Drawn <= small.Drawn {
		t.Errorf("MaxNodes %d: %d nodes, %d bytes; want more than the default's %d nodes, within %d bytes",
			2*DefaultMaxNodes, big.Drawn, len(big.SVG), small.Drawn, 2*DefaultMaxBytes)
	}
}
