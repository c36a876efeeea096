package blueprint_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats" // every format
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// profileFiles returns the shared corpus's files (MANIFEST.md there) and
// the profiles under this repository's testdata folders and notebook data,
// every file that may load; the corpus is skipped when absent.
func profileFiles(t *testing.T) []string {
	var files []string
	add := func(root string) {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.Contains(path, "_oracles") && !slices.Contains([]string{".md", ".go", ".c", ".svg", ".txt", ".string", ".golden"}, filepath.Ext(path)) {
				files = append(files, path)
			}
			return nil
		})
	}
	for _, root := range []string{"../../shared/corpus", "../../../shared/corpus"} {
		if _, err := os.Stat(root); err == nil {
			add(root)
			break
		}
	}
	for _, glob := range []string{"../analysis/testdata", "../analysis/*/testdata", "../notebooks/data", "../kernel/commands/testdata", "../plotting/testdata"} {
		dirs, _ := filepath.Glob(glob)
		for _, d := range dirs {
			add(d)
		}
	}
	return files
}

// TestCorpusBlueprints: on every profile of the corpus and of the
// repository's testdata, at levels 1, 2 and full names, by function and by
// context, every cycle (F) is a function found twice on one sample's
// stack, and by function a box is as tall as the value of the samples
// with it on the stack, counted once per sample (both found from the
// samples directly).
func TestCorpusBlueprints(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	read := 0
	for _, f := range profileFiles(t) {
		p, err := analysis.Load(context.Background(), f, analysis.LoadOptions{})
		if err != nil || len(p.Samples) == 0 {
			continue
		}
		read++
		tree := analysis.NewTree(p)
		twice := recurring(p)
		counts, _ := blueprint.CallCounts(tree, p, p.DefaultValue)
		for _, g := range []int{1, 2, 99} {
			v := compaction.Compact(tree, compaction.NewState(tree, g), p.DefaultValue)
			for _, by := range []blueprint.By{blueprint.ByFunction, blueprint.ByContext} {
				b := blueprint.Of(v, counts, nil, nil, by)
				for _, c := range b.Cycles {
					if !twice[c.Function] {
						t.Errorf("%s level %d by %s: a cycle of %s, which no stack has twice", f, g, by, c.Function)
					}
				}
				if by == blueprint.ByFunction {
					checkHeights(t, f, g, p, tree, v, b)
				}
			}
		}
	}
	t.Logf("read %d profiles", read)
}

// recurring returns the functions (not placeholders) found twice on one
// sample's stack.
func recurring(p *analysis.Profile) map[string]bool {
	out := map[string]bool{}
	for i := range p.Samples {
		seen := map[string]bool{}
		for _, fr := range p.Stacks.At(p.Samples[i].Stack) {
			n := p.Frames[fr].Name
			if seen[n] && !analysis.IsPlaceholder(n) {
				out[n] = true
			}
			seen[n] = true
		}
	}
	return out
}

// checkHeights compares each box's height with the sum, over the samples,
// of the value of those with one of the box's view nodes on their stack
// (once each).
func checkHeights(t *testing.T, f string, g int, p *analysis.Profile, tree *analysis.Tree, v *compaction.View, b *blueprint.Blueprint) {
	t.Helper()
	box := map[int32]int{}
	for i, bx := range b.Boxes {
		for _, n := range bx.Nodes {
			if v.Nodes[n].Name != bx.Name {
				t.Fatalf("%s level %d: box %s stands for view node %s", f, g, bx.Name, v.Nodes[n].Name)
			}
			box[n] = i
		}
	}
	want := make([]int64, len(b.Boxes))
	for i := range p.Samples {
		s := &p.Samples[i]
		seen := map[int]bool{}
		for n := tree.StackNode[s.Stack]; n >= 0; n = tree.Parent[n] {
			if k, ok := box[v.NodeOf(n)]; ok && !seen[k] {
				seen[k] = true
				want[k] += p.Value(s, v.Value)
			}
		}
	}
	for i, bx := range b.Boxes {
		if bx.Total != want[i] {
			t.Errorf("%s level %d: box %s is %d tall, want %d", f, g, bx.Name, bx.Total, want[i])
			return
		}
	}
}
