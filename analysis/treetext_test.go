package analysis_test

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/golden"
)

func TestTreeTextGolden(t *testing.T) {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	tree := analysis.NewTree(p)
	for _, tc := range []struct {
		name string
		o    analysis.TreeOptions
	}{
		{"profvis-toy.tree.txt", analysis.TreeOptions{}},
		{"profvis-toy.depth3.tree.txt", analysis.TreeOptions{Depth: 3}},
		{"profvis-toy.min20.tree.txt", analysis.TreeOptions{Min: 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := analysis.WriteTreeText(&b, tree, tc.o); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/golden/"+tc.name, b.Bytes())
		})
	}
}

// TestTreeRowsAccount checks on random profiles that every node is either
// shown or counted once in a Hidden, and that a shown node's children (shown
// or folded) add up to its total minus its self.
func TestTreeRowsAccount(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		p := testprof.Random(r, 1+r.Intn(50), nil)
		tree := analysis.NewTree(p)
		o := analysis.TreeOptions{Value: r.Intn(2), Depth: r.Intn(4), Min: float64(r.Intn(3)) * 10}
		rows := analysis.TreeRows(tree, o)
		seen := 0
		for j, row := range rows {
			if row.Node >= 0 {
				seen++
			}
			seen += row.Hidden
			if row.Node < 0 || row.Hidden > 0 {
				continue
			}
			sum := row.Self
			for k := j + 1; k < len(rows) && rows[k].Depth > row.Depth; k++ {
				if rows[k].Depth == row.Depth+1 {
					sum += rows[k].Total
				}
			}
			if sum != row.Total {
				t.Fatalf("case %d %+v: row %d %q: self+children = %d, want total %d", i, o, j, row.Name, sum, row.Total)
			}
		}
		if seen != tree.Len() {
			t.Fatalf("case %d %+v: %d nodes accounted for, want %d", i, o, seen, tree.Len())
		}
	}
}
