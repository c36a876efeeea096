package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestSplitCorpus splits every frame name of every profile of the corpus
// that loads, with the profile's language: no element is empty, and the
// elements give back the name (or its rearranged display, for file-first
// languages, C++ return types and Rust inherent impls), and shortened (Names.Short) they lose exactly the profile's
// common directory. It reports how many top units the names fall into.
func TestSplitCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep; skipped with -short")
	}
	root := testprof.Corpus(t)
	var frames, files int
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || strings.HasPrefix(info.Name(), ".") || strings.HasSuffix(path, ".md") {
			return err
		}
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil {
			return nil
		}
		files++
		tops := map[string]bool{}
		for _, f := range p.Frames {
			frames++
			els := analysis.Split(f.Name, p.Lang)
			for i, e := range els {
				if e == "" && f.Name != "" {
					t.Errorf("%s: Split(%q, %v) = %q: element %d empty", path, f.Name, p.Lang, els, i)
				}
			}
			if d := strings.Join(els, ""); d != f.Name && !reorders(f.Name, p.Lang) && !rearranges(d, f.Name) {
				t.Errorf("%s: Split(%q, %v) = %q, concatenated %q", path, f.Name, p.Lang, els, d)
			}
			tops[els[0]] = true
		}
		names := analysis.NewNames(p)
		for f := range p.Frames {
			full := names.Prefix(int32(f), 1<<20)
			if short := names.Short(full); short == "" && full != "" || short != full && names.Common+short != full {
				t.Errorf("%s: Short(%q) = %q, common directory %q", path, full, short, names.Common)
			}
		}
		t.Logf("%s: %v, %d frames, %d top units, common directory %q", strings.TrimPrefix(path, root), p.Lang, len(p.Frames), len(tops), names.Common)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no corpus profile loaded")
	}
	t.Logf("%d profiles, %d frames", files, frames)
}

// rearranges reports whether a display is the name with text moved and
// brackets dropped: a C++ return type moved after " -> ", a special name's
// kind after the name in brackets, a Rust inherent impl's brackets dropped
// (names_cpp.go).
func rearranges(display, name string) bool {
	var n [256]int
	for i := 0; i < len(name); i++ {
		n[name[i]]++
	}
	for i := 0; i < len(display); i++ {
		c := display[i]
		if strings.IndexByte(" ->[]", c) >= 0 {
			continue
		}
		if n[c]--; n[c] < 0 {
			return false
		}
	}
	return true
}

// reorders reports whether the display of name puts the file first: a
// Python or JavaScript location, in a profile of that language or guessed.
func reorders(name string, l analysis.Lang) bool {
	g := analysis.Guess(name)
	if l == analysis.LangAuto {
		l = g
	}
	return (l == analysis.LangPython || l == analysis.LangJS) && g == l
}
