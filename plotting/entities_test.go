package plotting

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/avid"
)

const shopMapping = "UI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\n"

// shop returns demo:shop's entities and its cels of two entries.
func shop(t *testing.T) (*avid.Entities, *avid.Cels) {
	t.Helper()
	p, err := formats.Demo("shop")
	if err != nil {
		t.Fatal(err)
	}
	m, err := avid.ParseMapping("shop.map", shopMapping)
	if err != nil {
		t.Fatal(err)
	}
	tree := analysis.NewTree(p)
	em := m.Apply(p)
	cs, err := avid.NewCels(tree, em, avid.CelStep{Entries: 2}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	return avid.NewEntities(tree, em, p.DefaultValue), cs
}

func TestGoldenEntities(t *testing.T) {
	e, cs := shop(t)
	pic, err := DrawEntities(e, "shop")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "shop-entities.svg", pic.SVG)
	golden(t, "shop-entities.txt", []byte(pic.Text))
	cels, err := DrawCels(cs, e, "shop")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "shop-cels.svg", cels.Sheet)
	golden(t, "shop-cels.html", cels.Player)
	golden(t, "shop-cels.txt", []byte(cels.Text))
	for name, svg := range map[string][]byte{"entities": pic.SVG, "sheet": cels.Sheet, "cel 3": cels.Cels[2]} {
		checkTitled(t, name, svg)
	}
}

// checkTitled parses an SVG and checks that every group has a tooltip.
func checkTitled(t *testing.T, name string, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	groups, titles := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch {
			case se.Name.Local == "title":
				titles++
			case se.Name.Local == "g" && len(se.Attr) > 0 && se.Attr[0].Value == "pl-n":
				groups++
			}
		}
	}
	if groups == 0 || titles != groups {
		t.Errorf("%s: %d groups, %d tooltips; want one per group", name, groups, titles)
	}
}

// A box's area is proportional to its entity's self value, for the boxes
// above the smallest size; every arc of the view is drawn with its calls.
func TestEntityGraphGeometry(t *testing.T) {
	e, _ := shop(t)
	g := newGraph(e, 1)
	most := int64(0)
	for _, s := range e.Self {
		most = max(most, s)
	}
	for i, b := range g.boxes {
		if b.side <= minBox {
			continue
		}
		want := maxBox * maxBox * float64(e.Self[i]) / float64(most)
		if got := b.side * b.side; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: box area %.3f, want %.3f (self %d of %d)", b.name, got, want, e.Self[i], most)
		}
	}
	pic, err := DrawEntities(e, "shop")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range e.Arcs {
		tip := e.Map.Names[a.From] + " → " + e.Map.Names[a.To] + "\n"
		if !strings.Contains(string(pic.SVG), esc(tip)) {
			t.Errorf("no arc %q in the picture", tip)
		}
	}
	if strings.Contains(string(pic.SVG), "(other)") != (e.Total[e.Map.Other()] > 0) {
		t.Errorf("(other) drawn = %v, want it drawn only when it has frames with values", !strings.Contains(string(pic.SVG), "(other)"))
	}
}

// The player holds every cel, needs nothing from the network, and the
// exported page is a whole HTML document.
func TestCelsPlayer(t *testing.T) {
	e, cs := shop(t)
	pic, err := DrawCels(cs, e, "shop")
	if err != nil {
		t.Fatal(err)
	}
	html := string(pic.Player)
	if n := strings.Count(html, `<div class="pl-cel">`); n != len(cs.Cels) {
		t.Errorf("player holds %d cels, want %d", n, len(cs.Cels))
	}
	for _, ref := range []string{"src=", "href=", "http://", "https://", "@import"} {
		if strings.Contains(strings.ReplaceAll(html, `xmlns="http://www.w3.org/2000/svg"`, ""), ref) {
			t.Errorf("player refers to something outside itself: %q", ref)
		}
	}
	page := string(CelsPage(pic, "shop · cels"))
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, html) || !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("CelsPage is not a page holding the player")
	}
}

// TestGoldenObjects draws a recording with memory events: bars of objects
// allocated and freed under each entity, growing from cel to cel.
func TestGoldenObjects(t *testing.T) {
	p := analysistest.Build(analysistest.Recording{Thread: "main", Ops: "*core.Item +ui.Main.run +core.Cart.add +db.Store.get *java.lang.String - " +
		"*java.lang.String - +core.Cart.add *java.lang.Integer - ~java.lang.String -"})
	m, err := avid.ParseMapping("shop.map", shopMapping)
	if err != nil {
		t.Fatal(err)
	}
	tree := analysis.NewTree(p)
	em := m.Apply(p)
	cs, err := avid.NewCels(tree, em, avid.CelStep{Entries: 2}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	e := avid.NewEntities(tree, em, 0)
	pic, err := DrawEntities(e, "objects")
	if err != nil {
		t.Fatal(err)
	}
	cels, err := DrawCels(cs, e, "objects")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "objects-entities.svg", pic.SVG)
	golden(t, "objects-cels.svg", cels.Sheet)
}
