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

// paintArc draws an arc as a curve bending to its right, so that the arcs
// A→B and B→A stay apart, with an arrowhead at the callee and its label
// at the middle.
func (g *graph) paintArc(s *svgWriter, a graphArc) {
	p, q := g.boxes[a.from], g.boxes[a.to]
	dx, dy := q.x-p.x, q.y-p.y
	length := math.Hypot(dx, dy)
	if length == 0 {
		return
	}
	cx, cy := (p.x+q.x)/2-dy*0.18, (p.y+q.y)/2+dx*0.18 // the control point, to the right of p→q
	x0, y0 := edge(p, cx, cy)
	x1, y1 := edge(q, cx, cy)
	colour := arcColour
	if a.hot {
		colour = hotColour
	}
	openTip(s, a.tip)
	s.printf(`<path d="M%.2f,%.2f Q%.2f,%.2f %.2f,%.2f" fill="none" stroke="%s" stroke-width="%.2f"/>`,
		x0, y0, cx, cy, x1, y1, colour, a.width)
	s.printf(`<polygon points="%s" fill="%s"/>`, arrowhead(x1, y1, x1-cx, y1-cy, (5+2*a.width)*math.Sqrt(g.scale)), colour)
	mx, my := 0.25*x0+0.5*cx+0.25*x1, 0.25*y0+0.5*cy+0.25*y1
	s.printf(`<text x="%.2f" y="%.2f" dy="0.35em" text-anchor="middle" stroke="#fff" stroke-width="3" paint-order="stroke" fill="%s">%s</text>`,
		mx, my, colour, esc(a.label))
	s.closeGroup()
}

// edge returns where the line from box b's centre towards (x, y) leaves
// the box, a few pixels out.
func edge(b entityBox, x, y float64) (float64, float64) {
	dx, dy := x-b.x, y-b.y
	m := max(math.Abs(dx), math.Abs(dy))
	if m == 0 {
		return b.x, b.y
	}
	t := (b.side/2 + 3) / m
	return b.x + dx*t, b.y + dy*t
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
// bar under the name.
func (g *graph) paintBox(s *svgWriter, b entityBox) {
	openTip(s, b.tip)
	h := b.side / 2
	s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" stroke="#fff"/>`, b.x-h, b.y-h, b.side, b.side, b.fill)
	s.printf(`<text x="%.2f" y="%.2f" text-anchor="middle">%s %s</text>`, b.x, b.y+h+12, esc(b.name), b.share)
	if b.alloc >= 0 {
		w := 40 * g.scale
		s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="3" fill="#e5e5e5"/><rect x="%.2f" y="%.2f" width="%.2f" height="3" fill="%s"/>`,
			b.x-w/2, b.y+h+16, w, b.x-w/2, b.y+h+16, w*b.alloc, allocColour)
	}
	s.closeGroup()
}
