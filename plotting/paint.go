package plotting

import (
	"fmt"
	"io"
	"math"
)

// Canvas sizes, in pixels.
const (
	flameWidth   = 1200.0
	flameRow     = 18.0
	radialRadius = 420.0
	treeSlot     = 150.0 // a leaf's width in a small tree
	treeSlotMin  = 70.0  // in a wide one: shorter labels rather than a huge canvas
	treeLevel    = 100.0
	treeDisc     = 26.0 // radius of a disc standing for the whole picture
	header       = 22.0 // the title line
	margin       = 8.0
)

// paint writes p as SVG in o's layout.
func paint(w io.Writer, p *Pic, o Options) error {
	switch o.Layout {
	case LayoutFlame:
		return paintFlame(w, p, o)
	case LayoutTree:
		return paintTree(w, p, o)
	}
	return paintRadial(w, p, o)
}

// title is the picture's first line: what is drawn and how much of it.
func title(p *Pic, o Options) string {
	kind := map[string]string{LayoutRadial: "radial view", LayoutTree: "tree", LayoutFlame: "icicle"}[o.Layout]
	if p.Bottom {
		kind = "bottom-up icicle"
	}
	s := kind
	if o.Profile != "" {
		s = o.Profile + " · " + kind
	}
	vt := valueType(p.View)
	s += fmt.Sprintf(" · %s · %s", vt.Type, Amount(p.Scale, vt))
	if p.Scale != p.Total {
		s += " (" + Percent(p.Scale, p.Total) + ")"
	}
	if v := p.View; v != nil && v.Before > 0 {
		s += fmt.Sprintf(" · %d nodes → %d compacted", v.Before, v.After)
	}
	s += fmt.Sprintf(" · %d drawn", len(p.Items))
	if h := p.Hidden(); h > 0 {
		s += fmt.Sprintf(", %d folded", h)
	}
	if n := p.Fresh; n > 0 {
		s += fmt.Sprintf(" · %d new since the last picture (outlined)", n)
	}
	return s
}

// fill returns an item's colour: grey for a fold mark, else by its name.
func fill(p *Pic, pal *palette, it *Item) string {
	if it.Fold > 0 || len(it.Nodes) == 0 {
		return foldFill
	}
	return pal.colour(elements(p.View, it.Nodes[0], it.Name))
}

// outline says whether item i is outlined as new: when it is, and it is at
// least 3 px wide (an outline would blacken a sliver).
func outline(p *Pic, i int32, width float64) bool {
	return p.IsNew(i) && width >= 3
}

// separator is the white outline that separates neighbours, left out on
// shapes narrower than 3 px, which it would paint over.
func separator(width, stroke float64) string {
	if width < 3 {
		return ""
	}
	return fmt.Sprintf(` stroke="#fff" stroke-width="%.2f"`, stroke)
}

// nodeID is an item's element id: from its handle for a compacted node, from
// its position otherwise (both deterministic).
func nodeID(p *Pic, prefix string, id int32) string {
	it := &p.Items[id]
	switch {
	case it.Fold > 0:
		return fmt.Sprintf("%s-more-%d", prefix, id)
	case p.Bottom || len(it.Nodes) != 1:
		return fmt.Sprintf("%s-b%d", prefix, id)
	}
	return prefix + "-" + p.View.Handle(it.Nodes[0])
}

func paintFlame(w io.Writer, p *Pic, o Options) error {
	rects := Flame(p, flameWidth, flameRow)
	height := header + float64(p.Depth+1)*flameRow + margin
	s := newSVG(w, flameWidth+2*margin, height)
	s.text(margin, 15, 0, "start", title(p, o))
	pal := newPalette(p.View)
	for i, r := range rects {
		it := &p.Items[i]
		s.open(nodeID(p, "f", int32(i)), tip(p, int32(i), o.Profile), outline(p, int32(i), r.W))
		s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>`,
			margin+r.X, header+r.Y, r.W, r.H-1, fill(p, pal, it), separator(r.W, 0.5))
		if l := label(p, it).fit(r.W - 6); l != "" {
			s.text(margin+r.X+3, header+r.Y+r.H-5, 0, "start", l)
		}
		s.closeGroup()
	}
	return s.close()
}

func paintTree(w io.Writer, p *Pic, o Options) error {
	leaves := float64(Leaves(p))
	slot := math.Max(treeSlotMin, math.Min(treeSlot, 1200/leaves))
	places := Tidy(p, slot, treeLevel, treeDisc)
	width := math.Max(leaves*slot, 600) + 2*margin
	height := header + float64(p.Depth+1)*treeLevel + margin
	s := newSVG(w, width, height)
	s.text(margin, 15, 0, "start", title(p, o))
	s.printf(`<g fill="none" stroke="#999">`)
	for i, pl := range places {
		if pa := p.Items[i].Parent; pa >= 0 {
			q := places[pa]
			top := header + q.Y + math.Max(q.R, 2) + 2*fontSize + 6
			mid := header + q.Y + treeDisc + 2*fontSize + 16 // below every label of the level
			s.printf(`<path d="M%.2f %.2fV%.2fH%.2fV%.2f"/>`, margin+q.X, top, mid, margin+pl.X, header+pl.Y)
		}
	}
	s.printf("</g>\n")
	pal := newPalette(p.View)
	for i, pl := range places {
		it := &p.Items[i]
		x, y := margin+pl.X, header+pl.Y
		s.open(nodeID(p, "t", int32(i)), tip(p, int32(i), o.Profile), outline(p, int32(i), treeDisc))
		s.printf(`<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s" stroke="#555" stroke-width="0.5"/>`,
			x, y, math.Max(pl.R, 2), fill(p, pal, it))
		ly := y + math.Max(pl.R, 2) + fontSize + 1
		if l := label(p, it).fit(slot - 6); l != "" {
			s.text(x, ly, 0, "middle", l)
		}
		if it.Fold == 0 {
			s.text(x, ly+fontSize+1, 0, "middle", Percent(it.Total, p.Total))
		}
		s.closeGroup()
	}
	return s.close()
}
