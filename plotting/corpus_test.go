package plotting

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats" // every format
	"github.com/proflens/proflens/compaction"
)

// TestGoldenConprof draws a real Go CPU profile at package level and with
// full names.
func TestGoldenConprof(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join("testdata", "conprof.pb.gz"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	cases := []struct {
		level int
		o     Options
	}{
		{1, Options{Layout: LayoutRadial}}, {1, Options{Layout: LayoutTree}}, {1, Options{Layout: LayoutFlame}},
		{1, Options{Layout: LayoutFlame, Inverted: true}}, {99, Options{Layout: LayoutRadial}}, {99, Options{Layout: LayoutFlame}},
	}
	for _, o := range everyKind() { // on a small budget: fold marks in every kind
		o.MaxNodes = 40
		cases = append(cases, struct {
			level int
			o     Options
		}{99, o})
	}
	var texts texts
	for _, c := range cases {
		v := compaction.Compact(tr, compaction.NewState(tr, c.level), p.DefaultValue)
		o := withTips(c.o, "conprof")
		name := fmt.Sprintf("conprof-level%d-%s", c.level, o.Layout)
		if o.Inverted {
			name += "-inverted"
		}
		if o.MaxNodes > 0 {
			name += fmt.Sprintf("-max%d", o.MaxNodes)
		}
		pic, err := Draw(v, boxed(v, o))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, name+".svg", pic.SVG)
		texts.add(name, pic.Text)
	}
	texts.check(t)
}

// TestCorpus draws every profile of the shared corpus that loads, in every
// layout, and checks the budget and determinism. It skips when the corpus
// is absent.
func TestCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus absent")
	}
	if testing.Short() {
		t.Skip("short")
	}
	var files []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(path, "_oracles") && !strings.HasSuffix(path, ".string") &&
			!strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	drawn := 0
	for _, f := range files {
		p, err := analysis.Load(context.Background(), f, analysis.LoadOptions{})
		if err != nil {
			continue
		}
		tr := analysis.NewTree(p)
		v := compaction.Compact(tr, compaction.NewState(tr, 99), p.DefaultValue)
		for _, o := range []Options{{Layout: LayoutRadial}, {Layout: LayoutTree}, {Layout: LayoutFlame, Inverted: true}} {
			a, err := Draw(v, o)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			b, _ := Draw(v, o)
			if !bytes.Equal(a.SVG, b.SVG) {
				t.Errorf("%s %s: two draws differ", f, o.Layout)
			}
			if a.Drawn > DefaultMaxNodes || len(a.SVG) > DefaultMaxBytes {
				t.Errorf("%s %s: %d nodes, %d bytes: over budget", f, o.Layout, a.Drawn, len(a.SVG))
			}
		}
		drawn++
	}
	t.Logf("drew %d of %d corpus files", drawn, len(files))
}
