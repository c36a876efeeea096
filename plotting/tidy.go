package plotting

import (
	"io"
	"math"

	"github.com/proflens/proflens/analysis"
)

// The tidy tree's canvas, in pixels.
const (
	treeSlot    = 150.0 // a leaf's width in a small tree
	treeSlotMin = 70.0  // in a wide one: shorter labels rather than a huge canvas
	treeLevel   = 100.0
	treeDisc    = 26.0 // radius of a disc standing for the whole picture
)

// Place is one node of the tidy tree: its centre and the radius of its
// disc, in pixels.
type Place struct {
	X, Y, R float64
	Item    int32
}

// Tidy lays p out as a top-down tree: leaves in consecutive slots of the
// given width, each parent centred over its first and last child, one level
// per depth. Discs have areas proportional to totals, the largest possible
// (Total = Scale) having radius rmax. Nodes of one depth are at least one
// slot apart, so discs no wider than a slot never overlap.
func Tidy(p *Pic, slot, level, rmax float64) []Place {
	out := make([]Place, len(p.Items))
	next := 0.0
	var place func(id int32) float64
	place = func(id int32) float64 {
		it := &p.Items[id]
		var x float64
		if len(it.Kids) == 0 {
			x = next*slot + slot/2
			next++
		} else {
			first := place(it.Kids[0])
			last := first
			for _, k := range it.Kids[1:] {
				last = place(k)
			}
			x = (first + last) / 2
		}
		out[id] = Place{X: x, Y: float64(it.Depth)*level + level/2, R: rmax * math.Sqrt(frac(it.Total, p.Scale)), Item: id}
		return x
	}
	for _, t := range p.Top {
		place(t)
	}
	return out
}

// Leaves returns the number of items without children (the tidy tree's
// slots).
func Leaves(p *Pic) int {
	n := 0
	for i := range p.Items {
		if len(p.Items[i].Kids) == 0 {
			n++
		}
	}
	return n
}

// paintTree draws p as a tidy tree: the edges first, then one disc per item
// with its label and percent below it.
func paintTree(w io.Writer, p *Pic, o Options) error {
	leaves := float64(Leaves(p))
	slot := math.Max(treeSlotMin, math.Min(treeSlot, 1200/leaves))
	places := Tidy(p, slot, treeLevel, treeDisc)
	width := math.Max(leaves*slot, 600) + 2*margin
	c := newCanvas(w, p, o, "t", width, header+float64(p.Depth+1)*treeLevel+margin)
	edges(c, places)
	for i, pl := range places {
		it := &p.Items[i]
		x, y := margin+pl.X, header+pl.Y
		c.node(i, treeDisc)
		c.printf(`<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s" stroke="#555" stroke-width="0.5"/>`,
			x, y, math.Max(pl.R, 2), c.fill(i))
		ly := y + math.Max(pl.R, 2) + fontSize + 1
		if l := label(p, it).fit(slot - 6); l != "" {
			c.text(x, ly, 0, "middle", l)
		}
		if it.Fold == 0 {
			c.text(x, ly+fontSize+1, 0, "middle", analysis.Percent(it.Total, p.Total))
		}
		c.closeGroup()
	}
	return c.close()
}

// edges draws the tree's edges in one group: down from each parent's
// labels, across below every label of its level, down to the child.
func edges(c *canvas, places []Place) {
	c.printf(`<g fill="none" stroke="#999">`)
	for i, pl := range places {
		if pa := c.p.Items[i].Parent; pa >= 0 {
			q := places[pa]
			top := header + q.Y + math.Max(q.R, 2) + 2*fontSize + 6
			mid := header + q.Y + treeDisc + 2*fontSize + 16
			c.printf(`<path d="M%.2f %.2fV%.2fH%.2fV%.2f"/>`, margin+q.X, top, mid, margin+pl.X, header+pl.Y)
		}
	}
	c.printf("</g>\n")
}
