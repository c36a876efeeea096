package plotting

import "io"

// The icicle's canvas, in pixels.
const (
	flameWidth = 1200.0
	flameRow   = 18.0
	flameBar   = 10.0 // the row of a start-up chain's bar
)

// Rect is one box of a flame (icicle) graph, in pixels; Item indexes
// Pic.Items.
type Rect struct {
	X, Y, W, H float64
	Item       int32
}

// Flame lays p out as an icicle: the top items on the first row, each
// item's children below it, left to right in drawing order. Widths are
// proportional to totals: width·Total/Scale. A start-up chain's bar is
// flameBar tall, and its children start right below it.
func Flame(p *Pic, width, row float64) []Rect {
	out := make([]Rect, len(p.Items))
	var place func(ids []int32, x, y float64)
	place = func(ids []int32, x, y float64) {
		for _, id := range ids {
			it := &p.Items[id]
			w, h := frac(it.Total, p.Scale)*width, row
			if it.Startup {
				h = flameBar
			}
			out[id] = Rect{X: x, Y: y, W: w, H: h, Item: id}
			place(it.Kids, x, y+h)
			x += w
		}
	}
	place(p.Top, 0, 0)
	return out
}

// bottom returns the lowest edge of rects.
func bottom(rects []Rect) float64 {
	y := 0.0
	for _, r := range rects {
		y = max(y, r.Y+r.H)
	}
	return y
}

// paintFlame draws p as an icicle, one box per item with its label where it
// fits.
func paintFlame(w io.Writer, p *Pic, o Options) error {
	rects := Flame(p, flameWidth, flameRow)
	c := newCanvas(w, p, o, "f", flameWidth+2*margin, header+bottom(rects)+margin)
	for i, r := range rects {
		c.node(i, r.W)
		c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>`,
			margin+r.X, header+r.Y, r.W, r.H-1, c.fill(i), separator(r.W, 0.5))
		switch l := label(p, &p.Items[i]).fit(r.W - 6); {
		case l == "":
		case p.Items[i].Startup:
			c.printf(`<text x="%.2f" y="%.2f" font-size="8">%s</text>`, margin+r.X+3, header+r.Y+r.H-2, esc(l))
		default:
			c.text(margin+r.X+3, header+r.Y+r.H-5, 0, "start", l)
		}
		c.closeGroup()
	}
	return c.close()
}
