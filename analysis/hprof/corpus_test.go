package hprof

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestHprofCorpus: each hprof file's CPU SAMPLES table sums to the header
// total MANIFEST.md records (xfvrp lists fewer: hprof's cutoff).
func TestHprofCorpus(t *testing.T) {
	dir := filepath.Join(testprof.Corpus(t), "java-hprof")
	for file, want := range map[string]int64{
		"basex/java.hprof.2009-01-05.txt": 2585,
		"basex/java.hprof.2009-11-27.txt": 1575,
		"xfvrp/java.hprof.txt":            41825,
	} {
		p, err := analysis.Load(context.Background(), filepath.Join(dir, file), analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr := analysis.NewTree(p)
		var sum int64
		for _, r := range tr.Roots {
			sum += tr.Total[0][r]
		}
		if p.Format != "hprof" || p.Total(0) != want || sum+tr.Unrooted[0] != want {
			t.Errorf("%s: format %s, total %d, tree %d+%d; want hprof, %d", file, p.Format, p.Total(0), sum, tr.Unrooted[0], want)
		}
	}
}
