package plotting

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/compaction"
	goldenfile "github.com/proflens/proflens/internal/golden"
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// toyViews returns the ProfVis worked example at Figures 2, 6, 7 and 10
// (DESIGN.md §5).
func toyViews(t testing.TB) map[string]*compaction.View {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	all := compaction.NewState(tr, 99)
	one := compaction.NewState(tr, 1)
	fig6 := compaction.Compact(tr, one, p.DefaultValue)
	target, err := fig6.Resolve("lib1 > lib2")
	if err != nil {
		t.Fatal(err)
	}
	_, fig7, err := compaction.Step(fig6, target, +1)
	if err != nil {
		t.Fatal(err)
	}
	s10, _, err := all.SetLevel(tr, 1, regexp.MustCompile(`^lib2\.`))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*compaction.View{
		"fig2":  compaction.Compact(tr, all, p.DefaultValue),
		"fig6":  fig6,
		"fig7":  fig7,
		"fig10": compaction.Compact(tr, s10, p.DefaultValue),
	}
}

func TestGoldenToy(t *testing.T) {
	views := toyViews(t)
	var texts texts
	for _, fig := range []string{"fig2", "fig6", "fig7", "fig10"} {
		for _, o := range everyKind() {
			o = withTips(o, "toy")
			name := "toy-" + fig + "-" + o.Layout
			if o.Inverted {
				name += "-inverted"
			}
			t.Run(name, func(t *testing.T) {
				pic, err := Draw(views[fig], boxed(views[fig], o))
				if err != nil {
					t.Fatal(err)
				}
				golden(t, name+".svg", pic.SVG)
				texts.add(name, pic.Text)
			})
		}
	}
	texts.check(t)
}

// texts are the text alternatives of a test's pictures, by picture name in
// drawing order. Kinds that describe a view alike give the same text, so
// each distinct text is one golden file, named after the first picture
// that gives it.
type texts []struct{ name, text string }

func (ts *texts) add(name, text string) { *ts = append(*ts, struct{ name, text string }{name, text}) }

// check compares each distinct text with its golden file.
func (ts texts) check(t *testing.T) {
	t.Helper()
	seen := map[string]bool{}
	for _, x := range ts {
		if !seen[x.text] {
			seen[x.text] = true
			golden(t, x.name+".txt", []byte(x.text))
		}
	}
}

// TestGoldenWellFormed parses every golden picture of a view as XML and checks that each
// node group carries a tooltip.
func TestGoldenWellFormed(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "toy-*.svg"))
	more, _ := filepath.Glob(filepath.Join("testdata", "conprof-*.svg"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no golden SVGs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(data))
		groups, titles := 0, 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				line, _ := d.InputPos()
				t.Fatalf("%s: line %d: %v", f, line, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				switch se.Name.Local {
				case "g":
					groups++
				case "title":
					titles++
				}
			}
		}
		if groups == 0 || titles < groups-1 { // the tree's edge group has no title
			t.Errorf("%s: %d groups, %d titles", f, groups, titles)
		}
	}
}
