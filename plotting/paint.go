package plotting

import (
	"fmt"
	"io"

	"github.com/proflens/proflens/analysis"
)

// The margins of every picture, in pixels.
const (
	header = 22.0 // the title line
	margin = 8.0
)

// canvas is a picture of a Pic being painted: the SVG writer, what is drawn,
// how, and the palette. Painters write each item as a group (node, shapes,
// labels, closeGroup).
type canvas struct {
	*svgWriter
	p      *Pic
	o      Options
	pal    *palette
	prefix string // of the items' element ids
}

// newCanvas starts an SVG of width × height pixels with the picture's
// title line.
func newCanvas(w io.Writer, p *Pic, o Options, prefix string, width, height float64) *canvas {
	c := &canvas{svgWriter: newSVG(w, width, height), p: p, o: o, pal: newPalette(p.View), prefix: prefix}
	c.text(margin, 15, 0, "start", title(p, o))
	return c
}

// node opens item i's group: its id, its tooltip, and the outline of a new
// node on a shape width pixels wide.
func (c *canvas) node(i int, width float64) {
	id := int32(i)
	c.open(nodeID(c.p, c.prefix, id), tip(c.p, id, c.o), outline(c.p, id, width))
}

// fill returns item i's colour: grey for a fold mark, else by its name.
func (c *canvas) fill(i int) string {
	it := &c.p.Items[i]
	if it.Fold > 0 || len(it.Nodes) == 0 {
		return foldFill
	}
	if it.Startup {
		return startupFill
	}
	return c.pal.colour(elements(c.p.View, it.Nodes[0]))
}

// title is the picture's first line: what is drawn and how much of it.
func title(p *Pic, o Options) string {
	kind := o.kind.Title
	if p.Bottom {
		kind = "bottom-up " + kind
	}
	s := kind
	if o.Profile != "" {
		s = o.Profile + " · " + kind
	}
	vt := valueType(p.View)
	s += fmt.Sprintf(" · %s · %s", vt.Type, Amount(p.Scale, vt))
	if p.Scale != p.Total {
		s += " (" + analysis.Percent(p.Scale, p.Total) + " of " + Amount(p.Total, vt) + ")"
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

func frac(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
