package folded

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestFoldedCorpus loads the folded files of the corpus by content, in
// UTF-8, UTF-16 (both byte orders) and CRLF, and checks MANIFEST.md's line
// counts, distinct stacks and total weights.
func TestFoldedCorpus(t *testing.T) {
	dir := testprof.Corpus(t)
	ss := "speedscope/sample/profiles/stackcollapse/"
	for _, c := range []struct {
		file          string
		lines, stacks int
		total         int64
	}{
		{ss + "alternating.txt", 182, 2, 182},
		{ss + "recursion.txt", 10, 7, 10},
		{ss + "simple.txt", 5, 3, 14},
		{ss + "simple-crlf.txt", 5, 3, 14},
		{ss + "simple-utf16-be.txt", 5, 3, 14},
		{ss + "simple-utf16-le.txt", 5, 3, 14},
		{ss + "tall.txt", 1, 1, 1},
		{"firefox-profiler/src/test/fixtures/upgrades/flamegraph.txt", 45, 45, 152364},
	} {
		p, err := analysis.Load(context.Background(), filepath.Join(dir, c.file), analysis.LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if p.Format != "folded" || len(p.Samples) != c.lines || p.Stacks.Len() != c.stacks || p.Total(0) != c.total {
			t.Errorf("%s: %s, %d lines, %d stacks, total %d; want folded, %d, %d, %d",
				c.file, p.Format, len(p.Samples), p.Stacks.Len(), p.Total(0), c.lines, c.stacks, c.total)
		}
	}
	_, err := analysis.Load(context.Background(), filepath.Join(dir, ss+"simple-with-invalids.txt"), analysis.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `simple-with-invalids.txt: line 8: expected "frame;frame;... COUNT" (folded stacks), got "invalid line"`) {
		t.Errorf("simple-with-invalids: error %v, want line 8", err)
	}
}
