package compaction

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats" // every format
)

// TestCorpus compacts every profile of the shared corpus that loads (real
// names from Go, JVM, C++, JavaScript, Python profilers) at levels 1, 2 and
// 99 and after a few random steps, checking the view invariants and that a
// step's spliced view equals a full recompute. It skips when the corpus is
// absent.
func TestCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no corpus at %s", root)
	}
	if testing.Short() {
		t.Skip("corpus sweep skipped in -short mode")
	}
	r := rand.New(rand.NewPCG(21, 21))
	loaded := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) == "MANIFEST.md" {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 512<<10 {
			return nil
		}
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil || len(p.Samples) == 0 {
			return nil // not a profile, or a format another test covers
		}
		loaded++
		tr := analysis.NewTree(p)
		for _, g := range []int{1, 2, 99} {
			v := Compact(tr, NewState(tr, g), p.DefaultValue)
			checkInvariants(t, v)
			for step := 0; step < 3 && len(v.Nodes) > 0; step++ {
				target := int32(r.IntN(len(v.Nodes)))
				ns, changed := stepLevels(tr, v.state, v, target, []int{-1, 1}[r.IntN(2)])
				if !changed {
					continue
				}
				if got, _, _ := recompact(context.Background(), v, ns, target); got != nil {
					if err := sameView(got, Compact(tr, ns, p.DefaultValue)); err != nil {
						t.Errorf("%s: step on %s: %v", path, v.Path(target), err)
					}
				}
			}
			if t.Failed() {
				t.Fatalf("%s at level %d", path, g)
			}
		}
		return nil
	})
	t.Logf("%d corpus profiles compacted", loaded)
	if loaded == 0 {
		t.Errorf("no corpus file loaded")
	}
}
