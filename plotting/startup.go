package plotting

import (
	"sort"
	"strings"

	"github.com/proflens/proflens/compaction"
)

// startupFill is the colour of a start-up chain's bar.
const startupFill = "#bbbbbb"

// startupSource is a view top-down with each start-up chain
// (compaction.View.Startup: the loader's, the C library's or a runtime's
// frames above the program's entry) drawn as one item, a bar: a top item
// standing for the chain's nodes, whose children are the first nodes
// below it that are the program's. Bars have ids after the view's nodes.
type startupSource struct {
	topDown
	bars []startupBar
}

type startupBar struct {
	name  string
	nodes []int32 // the chain's view nodes
	kids  []int32 // the nodes just below it
	total int64
}

// newStartupSource returns the source of v below roots with its start-up
// chains as bars, or the plain top-down source when it has none.
func newStartupSource(v *compaction.View, roots []int32) source {
	td := topDown{v: v, roots: roots}
	mark := v.Startup()
	s := &startupSource{topDown: td}
	var tops []int32
	for _, r := range td.tops() {
		if !mark[r] {
			tops = append(tops, r)
			continue
		}
		b := startupBar{total: v.Nodes[r].Total}
		var names []string
		for n := r; n >= 0; {
			names = append(names, v.Nodes[n].Name)
			next := int32(-1)
			for _, k := range v.Nodes[n].Children { // heaviest first
				if mark[k] && next < 0 {
					next = k
				}
			}
			n = next
		}
		for n := range subtreeWhile(v, r, mark) {
			b.nodes = append(b.nodes, n)
			for _, k := range positive(v, v.Nodes[n].Children) {
				if !mark[k] {
					b.kids = append(b.kids, k)
				}
			}
		}
		sort.SliceStable(b.kids, func(i, j int) bool {
			x, y := v.Nodes[b.kids[i]], v.Nodes[b.kids[j]]
			return x.Total > y.Total || x.Total == y.Total && x.Name < y.Name
		})
		b.name = "start-up: " + strings.Join(names, " → ")
		tops = append(tops, int32(len(v.Nodes)+len(s.bars)))
		s.bars = append(s.bars, b)
	}
	if len(s.bars) == 0 {
		return &td
	}
	s.roots = tops
	return s
}

// subtreeWhile yields, in pre-order, the nodes of r's subtree that are
// marked with all their ancestors up to r (r must be marked); a nil mark
// marks every node.
func subtreeWhile(v *compaction.View, r int32, mark []bool) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		stack := []int32{r}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !yield(n) {
				return
			}
			kids := v.Nodes[n].Children
			for k := len(kids) - 1; k >= 0; k-- {
				if mark == nil || mark[kids[k]] {
					stack = append(stack, kids[k])
				}
			}
		}
	}
}

func (s *startupSource) bar(i int32) *startupBar {
	if k := int(i) - len(s.v.Nodes); k >= 0 {
		return &s.bars[k]
	}
	return nil
}

func (s *startupSource) tops() []int32 { return s.roots }

func (s *startupSource) kids(i int32) []int32 {
	if b := s.bar(i); b != nil {
		return b.kids
	}
	return s.topDown.kids(i)
}

func (s *startupSource) item(i int32) Item {
	b := s.bar(i)
	if b == nil {
		return s.topDown.item(i)
	}
	self := b.total
	for _, k := range b.kids {
		self -= s.v.Nodes[k].Total
	}
	return Item{Name: b.name, Total: b.total, Self: self, Nodes: b.nodes, Startup: true}
}
