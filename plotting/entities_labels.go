package plotting

import "math"

// The labels of an entity graph never cover each other nor a box: each
// box's label goes under its box, else a line lower, else above it; each
// arc's label goes at the middle of its curve, else further along it
// towards either end; an arc label with no free place is left out (its
// tooltip keeps the number). Labels use a monospaced font, so their boxes
// are exact.

// area is a box in picture coordinates.
type area struct{ x0, y0, x1, y1 float64 }

func (a area) overlaps(b area) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// textRect is the box of label centred on (x, y).
func textRect(label string, x, y float64) area {
	w := float64(len([]rune(label))) * charWidth
	return area{x - w/2, y - fontSize/2, x + w/2, y + fontSize/2}
}

// arcTs are where along its curve an arc's label may go, in order.
var arcTs = []float64{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}

// place fixes the curves of the arcs and the places of all labels.
func (g *graph) place() {
	taken := []area{{0, 0, g.w, header}} // the title line
	for _, b := range g.boxes {
		if b.side > 0 {
			h := b.side/2 + 2
			taken = append(taken, area{b.x - h, b.y - h, b.x + h, b.y + h})
		}
	}
	for i := range g.boxes {
		if b := &g.boxes[i]; b.side > 0 {
			h := b.side / 2
			b.labelY = g.free(&taken, b.label(), b.x, []float64{b.y + h + 9, b.y + h + 21, b.y - h - 9})
		}
	}
	for i := range g.arcs {
		a := &g.arcs[i]
		g.curve(a)
		a.lx, a.ly, a.shown = 0, 0, false
		for _, t := range arcTs {
			x, y := bezier(a.x0, a.cx, a.x1, t), bezier(a.y0, a.cy, a.y1, t)
			if r := textRect(a.label, x, y); g.inside(r) && !overlapsAny(r, taken) {
				a.lx, a.ly, a.shown = x, y, true
				taken = append(taken, r)
				break
			}
		}
	}
}

// free returns the first of the heights ys where label, centred at x, fits
// among taken (the first one when none does) and takes its place.
func (g *graph) free(taken *[]area, label string, x float64, ys []float64) float64 {
	for _, y := range ys {
		if r := textRect(label, x, y); g.inside(r) && !overlapsAny(r, *taken) {
			*taken = append(*taken, r)
			return y
		}
	}
	*taken = append(*taken, textRect(label, x, ys[0]))
	return ys[0]
}

func (g *graph) inside(r area) bool { return r.x0 >= 1 && r.y0 >= 1 && r.x1 <= g.w-1 && r.y1 <= g.h-1 }

func overlapsAny(r area, taken []area) bool {
	for _, t := range taken {
		if r.overlaps(t) {
			return true
		}
	}
	return false
}

// curve sets an arc's curve: from box to box, bending to the right of its
// direction, so that the arcs A→B and B→A stay apart.
func (g *graph) curve(a *graphArc) {
	p, q := g.boxes[a.from], g.boxes[a.to]
	dx, dy := q.x-p.x, q.y-p.y
	a.cx, a.cy = (p.x+q.x)/2-dy*0.18, (p.y+q.y)/2+dx*0.18
	a.x0, a.y0 = edge(p, a.cx, a.cy)
	a.x1, a.y1 = edge(q, a.cx, a.cy)
}

// bezier is a quadratic Bézier curve's coordinate at t.
func bezier(p0, c, p1, t float64) float64 { return (1-t)*(1-t)*p0 + 2*(1-t)*t*c + t*t*p1 }

// edge returns where the line from box b's centre towards (x, y) leaves
// the box, a few pixels out.
func edge(b entityBox, x, y float64) (float64, float64) {
	dx, dy := x-b.x, y-b.y
	m := math.Max(math.Abs(dx), math.Abs(dy))
	if m == 0 {
		return b.x, b.y
	}
	t := (b.side/2 + 3) / m
	return b.x + dx*t, b.y + dy*t
}
