package plotting

import (
	"fmt"
	"math"
	"strings"
)

// Colours of the entity graph's strokes.
const (
	arcColour   = "#6b6b6b"
	hotColour   = "#c2410c" // an arc with calls in the cel drawn
	stackColour = "#9a9a9a"
	allocColour = "#3b3b3b"
	freeColour  = "#b91c1c" // objects freed
)

// openTip opens a group with a tooltip and no id: an entity graph's
// elements are found by their tooltips, and the cels of one recording
// repeat them.
func openTip(s *svgWriter, tip string) {
	s.printf(`<g class="pl-n"><title>%s</title>`, esc(tip))
}

// paintStack draws the hyperarc of the call stack: a thick grey line
// through the centres of its entities in call order, a ring for a stack of
// one entity.
func (g *graph) paintStack(s *svgWriter) {
	if len(g.stack) == 0 {
		return
	}
	var names, pts []string
	for _, e := range g.stack {
		b := g.boxes[e]
		names = append(names, b.name)
		pts = append(pts, fmt.Sprintf("%.2f,%.2f", b.x, b.y))
	}
	openTip(s, "call stack at the cel's end: "+strings.Join(names, " > "))
	width := 14 * g.scale
	if len(pts) == 1 {
		b := g.boxes[g.stack[0]]
		s.printf(`<circle cx="%.2f" cy="%.2f" r="%.2f" fill="none" stroke="%s" stroke-width="%.2f" stroke-opacity="0.45"/>`,
			b.x, b.y, b.side/2+width, stackColour, width)
	} else {
		s.printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="%.2f" stroke-opacity="0.45" stroke-linejoin="round" stroke-linecap="round"/>`,
			strings.Join(pts, " "), stackColour, width)
	}
	s.closeGroup()
}

// paintArc draws an arc's curve, its arrowhead at the callee and its label
// where place put it.
func (g *graph) paintArc(s *svgWriter, a graphArc) {
	if a.x0 == a.x1 && a.y0 == a.y1 {
		return
	}
	colour := arcColour
	if a.hot {
		colour = hotColour
	}
	// The curve sits in a group of its own, out of reach of the hover style
	// (.pl-n:hover>path), which would thin it under the pointer and so
	// move it from under the pointer.
	openTip(s, a.tip)
	s.printf(`<g><path d="M%.2f,%.2f Q%.2f,%.2f %.2f,%.2f" fill="none" stroke="%s" stroke-width="%.2f"/>`,
		a.x0, a.y0, a.cx, a.cy, a.x1, a.y1, colour, a.width)
	s.printf(`<polygon points="%s" fill="%s"/></g>`, arrowhead(a.x1, a.y1, a.x1-a.cx, a.y1-a.cy, (5+2*a.width)*math.Sqrt(g.scale)), colour)
	if a.shown {
		s.printf(`<text x="%.2f" y="%.2f" dy="0.35em" text-anchor="middle" stroke="#fff" stroke-width="3" paint-order="stroke" fill="%s">%s</text>`,
			a.lx, a.ly, colour, esc(a.label))
	}
	s.closeGroup()
}

// arrowhead returns the points of a triangle of the given size with its tip
// at (x, y), pointing along (dx, dy).
func arrowhead(x, y, dx, dy, size float64) string {
	l := math.Hypot(dx, dy)
	if l == 0 {
		return ""
	}
	ux, uy := dx/l, dy/l
	bx, by := x-ux*size, y-uy*size
	return fmt.Sprintf("%.2f,%.2f %.2f,%.2f %.2f,%.2f", x, y, bx-uy*size*0.5, by+ux*size*0.5, bx+uy*size*0.5, by-ux*size*0.5)
}

// paintBox draws an entity's box, its name under it, and the allocation
// and deallocation bars under the name.
func (g *graph) paintBox(s *svgWriter, b entityBox) {
	openTip(s, b.tip)
	h := b.side / 2
	s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" stroke="#fff"/>`, b.x-h, b.y-h, b.side, b.side, b.fill)
	s.printf(`<text x="%.2f" y="%.2f" dy="0.35em" text-anchor="middle">%s</text>`, b.x, b.labelY, esc(b.label()))
	y := b.labelY + fontSize/2 + 2
	for _, bar := range []struct {
		share  float64
		colour string
	}{{b.alloc, allocColour}, {b.free, freeColour}} {
		if bar.share >= 0 {
			w := 40 * g.scale
			s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="3" fill="#e5e5e5"/><rect x="%.2f" y="%.2f" width="%.2f" height="3" fill="%s"/>`,
				b.x-w/2, y, w, b.x-w/2, y, w*bar.share, bar.colour)
			y += 5
		}
	}
	s.closeGroup()
}
