package pprof

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/testtool"
)

// corpusPairs are pairs of parca's heap series in the shared corpus (the
// test skips without it), baseline first: each consecutive pair (most are
// equal, a difference of nothing) and the first with the last.
func corpusPairs(t *testing.T) [][2]string {
	files, _ := filepath.Glob(filepath.Join(testprof.Corpus(t), "parca/pkg/query/testdata/many/*.pb.gz"))
	var pairs [][2]string
	for i := 1; i < len(files); i++ {
		pairs = append(pairs, [2]string{files[i-1], files[i]})
	}
	if len(files) > 1 {
		pairs = append(pairs, [2]string{files[0], files[len(files)-1]})
	}
	return pairs
}

// TestDiffAgainstPprof: the top of a difference made by Compare equals
// `go tool pprof -top -diff_base=BASE NEW`, function for function, flat and
// cum, in order and total, for every value type.
func TestDiffAgainstPprof(t *testing.T) {
	testtool.Need(t, "go")
	if rows := checkDiff(t, [2]string{"testdata/heap-8.pb.gz", "testdata/heap-9.pb.gz"}); rows == 0 {
		t.Error("the testdata pair differs in nothing: the oracle checks no row")
	}
	if testing.Short() {
		return
	}
	t.Run("corpus", func(t *testing.T) {
		for _, pair := range corpusPairs(t) {
			checkDiff(t, pair)
		}
	})
}

// checkDiff compares the difference of a pair with pprof's for every value
// type; it returns the number of rows compared.
func checkDiff(t *testing.T, pair [2]string) (rows int) {
	t.Run(filepath.Base(pair[0])+"-"+filepath.Base(pair[1]), func(t *testing.T) {
		base, new := loadFile(t, pair[0]), loadFile(t, pair[1])
		for v, vt := range new.ValueTypes {
			d, err := analysis.Compare(analysis.Side{Profile: base, Value: v}, analysis.Side{Profile: new, Value: v}, false)
			if err != nil {
				t.Fatal(err)
			}
			got := analysis.NewTop(analysis.NewTree(d), analysis.TopOptions{Value: analysis.DiffChange})
			if got.Value != vt {
				t.Errorf("%s: the difference's top has value type %v", vt.Type, got.Value)
			}
			rows += len(got.Rows)
			compareTop(t, vt, got, runPprofTop(t, pair[1], v, vt.Unit, "-diff_base="+pair[0]))
		}
	})
	return rows
}

func loadFile(t *testing.T, path string) *analysis.Profile {
	t.Helper()
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
