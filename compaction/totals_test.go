package compaction

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// randomTwoValues builds a random profile of up to n samples over
// JVM-style names (package, class, method), some recursive, with two value
// types whose values differ in ratio from sample to sample.
func randomTwoValues(r *rand.Rand, n int) *analysis.Tree {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"}, analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	b.Profile().Lang = analysis.LangJVM
	for range 1 + r.IntN(n) {
		var st []int32
		for range r.IntN(7) {
			var name strings.Builder
			for _, a := range alphabet[:1+r.IntN(3)] {
				name.WriteString(a[r.IntN(len(a))])
			}
			st = append(st, b.Frame(analysis.Frame{Name: name.String()}))
		}
		x := int64(r.IntN(5))
		b.Add(b.Stack(st), []int64{x, x * int64(r.IntN(3)+1)}, 0, false, "", nil)
	}
	return analysis.NewTree(b.Finish())
}

// TestTotalsEqualCompact: on random trees and states, Totals in another
// value type gives, node for node, the totals and selves of the view
// compacted in that value type (matched by handle, which does not depend
// on the value type).
func TestTotalsEqualCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 300; i++ {
		tr := randomTwoValues(r, 40)
		s := randomLevels(r, tr)
		v0, v1 := Compact(tr, s, 0), Compact(tr, s, 1)
		total, self := v0.Totals(1)
		for _, id := range v0.Preorder() {
			j, err := v1.Resolve(v0.Handle(id))
			if err != nil {
				t.Fatal(err)
			}
			if n := v1.Nodes[j]; n.Total != total[id] || n.Self != self[id] {
				t.Fatalf("case %d: %s: Totals(1) = %d/%d, Compact in value 1 = %d/%d", i, n.Name, total[id], self[id], n.Total, n.Self)
			}
		}
	}
}
