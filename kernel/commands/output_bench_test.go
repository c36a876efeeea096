package commands

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/kernel"
)

// genSession is a session holding the generated 1M-sample profile
// (gen.Default, the speed target) as big, loaded once for the benchmarks.
var genSession = sync.OnceValues(func() (*kernel.Session, error) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		return nil, err
	}
	s := kernel.NewSession(filepath.Dir(path), testTable())
	_, err = kernel.RunCell(context.Background(), s, "load "+filepath.Base(path)+" as big")
	return s, err
})

// benchCell runs cell on the generated profile in every iteration.
func benchCell(b *testing.B, cell string) {
	s, err := genSession()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunForTest(b, s, cell); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLevelGen sets full names on the generated profile and shows
// the view's top part: 4.5M compacted nodes, whose JSON is more than the
// cell's budget.
func BenchmarkLevelGen(b *testing.B) { benchCell(b, "level big 99") }

// BenchmarkViewGen shows the profile's view (its first 500 nodes as text,
// the whole view as JSON when it fits the budget).
func BenchmarkViewGen(b *testing.B) { benchCell(b, "level big 1\nview big") }

// BenchmarkExportJSONGen writes the view at full names to a file.
func BenchmarkExportJSONGen(b *testing.B) {
	benchCell(b, "level big 99 max=1\nexport big "+filepath.Join(b.TempDir(), "big.json"))
}

// BenchmarkCollapseRecursionGen folds the recursion out of the generated
// profile and back.
func BenchmarkCollapseRecursionGen(b *testing.B) {
	benchCell(b, "collapse-recursion big\ncollapse-recursion big off")
}
