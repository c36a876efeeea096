package kernel

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestRegrowPastAPage: a live series that grows from a few call-tree nodes
// to thousands (past a page of the compaction state's 1,024 values), with
// the initial state read before it grew, compacts as the same profile
// loaded afresh does.
func TestRegrowPastAPage(t *testing.T) {
	window := func(n int) *analysis.Profile {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
		main := b.Frame(analysis.Frame{Name: "main.main"})
		for i := range n {
			f := b.Frame(analysis.Frame{Name: fmt.Sprintf("pkg%d.f%d", i%50, i)})
			b.Add(b.Stack([]int32{main, f}), []int64{1}, 0, false, "", nil)
		}
		return b.Finish()
	}
	parts := []*analysis.Profile{window(10), window(3000)}
	small, err := analysis.Series("live", parts[:1])
	if err != nil {
		t.Fatal(err)
	}
	l := NewLoaded("live", small, analysis.NewTree(small))
	if _, err := l.CompactedView(context.Background()); err != nil {
		t.Fatal(err)
	}
	grown, err := analysis.Series("live", parts)
	if err != nil {
		t.Fatal(err)
	}
	l.Regrow(grown)
	got, err := l.CompactedView(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewLoaded("live", grown, analysis.NewTree(grown)).CompactedView(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Nodes, want.Nodes) {
		t.Errorf("regrown view has %d nodes, loaded afresh %d", len(got.Nodes), len(want.Nodes))
	}
}
