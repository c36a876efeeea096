package compaction_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// TestFitCorpus fits every profile of the shared corpus that loads, with
// at least 200 call-tree nodes and positive weights, to 50, 100 and 200
// nodes, and logs (go test -v -run TestFitCorpus) the share of the weight
// the fitted view shows with its own name against pprof's -nodecount=N
// (the flat weight of the N heaviest functions, what `go tool pprof -top
// -nodecount=N` says it shows), and the call-tree nodes → fitted nodes
// ratio. Each fit must keep to its budget (folding the lightest regions
// when the fully compacted view is larger), and hold R1 and R2. It skips
// when the corpus is absent.
func TestFitCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no corpus at %s", root)
	}
	if testing.Short() {
		t.Skip("corpus sweep skipped in -short mode")
	}
	var lines []string
	sums, roomy := map[int][2]float64{}, map[int][3]float64{} // roomy: where the coarsest view fits N
	count := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) == "MANIFEST.md" {
			return nil
		}
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil || len(p.Samples) == 0 {
			return nil
		}
		tr := analysis.NewTree(p)
		v := p.DefaultValue
		top := analysis.NewTop(tr, analysis.TopOptions{Value: v})
		if tr.Len() < 200 || top.Total <= 0 || top.Total != p.Total(v) {
			return nil // small, or with negative values: the shares would not compare
		}
		count++
		rel, _ := filepath.Rel(root, path)
		line := fmt.Sprintf("%-70s %7d", rel, tr.Len())
		base := compaction.Compact(tr, compaction.NewState(tr, 1), v)
		for _, n := range []int{30, 50, 100, 200} {
			start := time.Now()
			fit, err := compaction.Fit(t.Context(), base, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			if fit.After > n {
				t.Errorf("%s: fit nodes=%d gave %d nodes (fully compacted: %d)", rel, n, fit.After, base.After)
			}
			if x := fit.Check(); x != nil {
				t.Errorf("%s: fit nodes=%d breaks %s: %s", rel, n, x.Rule, x.Describe(fit))
			}
			named, trimmed := share(fit.Named(), top.Total), share(pprofShown(top, n), top.Total)
			s := sums[n]
			sums[n] = [2]float64{s[0] + named, s[1] + trimmed}
			if base.After <= n {
				r := roomy[n]
				roomy[n] = [3]float64{r[0] + named, r[1] + trimmed, r[2] + 1}
			}
			line += fmt.Sprintf(" | %4d %5.1f%% %5.1f%% %4dms", fit.After, 100*named, 100*trimmed, took.Milliseconds())
		}
		lines = append(lines, line)
		return nil
	})
	t.Logf("%-70s %7s | N=30: nodes, named by fit, by pprof -nodecount, time | N=50 ... | N=100 ... | N=200 ...\n%s", "profile", "nodes", strings.Join(lines, "\n"))
	for _, n := range []int{30, 50, 100, 200} {
		r := roomy[n]
		t.Logf("N=%d: mean share shown with its own name over %d profiles: fit %.1f%%, pprof -nodecount %.1f%%; "+
			"over the %.0f whose fully compacted view has at most N nodes: fit %.1f%%, pprof %.1f%%",
			n, count, 100*sums[n][0]/float64(count), 100*sums[n][1]/float64(count), r[2], 100*r[0]/r[2], 100*r[1]/r[2])
	}
}

// pprofShown is the flat weight of the n heaviest functions.
func pprofShown(top *analysis.Top, n int) int64 {
	var sum int64
	for i, r := range top.Rows {
		if i == n {
			break
		}
		sum += r.Flat
	}
	return sum
}

func share(part, whole int64) float64 { return float64(part) / float64(whole) }
