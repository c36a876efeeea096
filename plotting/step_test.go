package plotting

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// randomJVMTree is a random call tree of about n nodes whose frames have
// JVM names (package.Class.method, some packages two deep), so that steps
// split and merge nodes.
func randomJVMTree(r *rand.Rand, n int) *analysis.Tree {
	b := analysis.NewBuilder("random", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Profile().Lang = analysis.LangJVM
	name := func() string {
		pkg := []string{"a", "b", "a.x", "a.y", "c"}[r.Intn(5)]
		return fmt.Sprintf("%s.C%d.m%d", pkg, r.Intn(3), r.Intn(3))
	}
	var path []int32
	for range n / 4 {
		path = path[:0]
		for range 1 + r.Intn(8) {
			path = append(path, b.Frame(analysis.Frame{Name: name()}))
		}
		b.Add(b.Stack(path), []int64{int64(1 + r.Intn(9))}, 0, false, "", nil)
	}
	return analysis.NewTree(b.Finish())
}

// TestSteppedViewDrawsAsFresh: a view made by a chain of steps numbers its
// nodes differently from the same state compacted from scratch, and must
// still draw byte for byte the same in every layout.
func TestSteppedViewDrawsAsFresh(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	layouts := everyKind()
	steps := 0
	for i := 0; i < 60; i++ {
		tr := randomJVMTree(r, 300)
		v := compaction.Compact(tr, compaction.NewState(tr, 1), 0)
		for range 8 {
			pre := v.Preorder()
			ns, nv, err := compaction.Step(v, pre[r.Intn(len(pre))], []int{-1, 1}[r.Intn(2)])
			if err != nil {
				continue
			}
			steps++
			fresh := compaction.Compact(tr, ns, 0)
			for _, o := range layouts {
				o.Order = []string{OrderName, OrderWeight}[r.Intn(2)]
				got, err1 := Draw(nv, boxed(nv, o))
				want, err2 := Draw(fresh, boxed(fresh, o))
				if err1 != nil || err2 != nil {
					t.Fatalf("tree %d, %+v: %v, %v", i, o, err1, err2)
				}
				if string(got.SVG) != string(want.SVG) || got.Text != want.Text {
					t.Fatalf("tree %d, %+v: the stepped view draws differently from the fresh one\n%s\n---\n%s", i, o, got.Text, want.Text)
				}
			}
			v = nv
		}
	}
	if steps < 100 {
		t.Errorf("only %d steps taken", steps)
	}
}
