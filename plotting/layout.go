package plotting

import "math"

// Rect is one box of a flame (icicle) graph, in pixels; Item indexes
// Pic.Items.
type Rect struct {
	X, Y, W, H float64
	Item       int32
}

// Flame lays p out as an icicle: the top items on the first row, each
// item's children below it, left to right in drawing order. Widths are
// proportional to totals: width·Total/Scale.
func Flame(p *Pic, width, row float64) []Rect {
	out := make([]Rect, len(p.Items))
	var place func(ids []int32, x float64)
	place = func(ids []int32, x float64) {
		for _, id := range ids {
			it := &p.Items[id]
			w := frac(it.Total, p.Scale) * width
			out[id] = Rect{X: x, Y: float64(it.Depth) * row, W: w, H: row, Item: id}
			place(it.Kids, x)
			x += w
		}
	}
	place(p.Top, 0)
	return out
}

// Sector is one annular sector of the radial view: radii in pixels, angles
// in radians counter-clockwise from the positive x axis (A0 > A1: the fan
// runs clockwise from π on the left to 0 on the right).
type Sector struct {
	R0, R1, A0, A1 float64
	Item           int32
}

// Ring returns the inner and outer radius of ring d out of n in a fan of
// the given radius. The rings have equal areas (r_d = radius·√(d/n)), so a
// sector's area is proportional to its angle, and the angle to its weight:
// area = π·radius²/(2n) · Total/Scale at every depth. The price is that
// outer rings are thinner than inner ones; the centre is a half disc.
func Ring(d, n int, radius float64) (r0, r1 float64) {
	return radius * math.Sqrt(float64(d)/float64(n)), radius * math.Sqrt(float64(d+1)/float64(n))
}

// Radial lays p out as ProfVis's semi-circular fan: the top items share
// the half disc at the centre, and each item's children share its angular
// sector on the next ring.
func Radial(p *Pic, radius float64) []Sector {
	out := make([]Sector, len(p.Items))
	n := int(p.Depth) + 1
	var place func(ids []int32, a float64)
	place = func(ids []int32, a float64) {
		for _, id := range ids {
			it := &p.Items[id]
			span := frac(it.Total, p.Scale) * math.Pi
			r0, r1 := Ring(int(it.Depth), n, radius)
			out[id] = Sector{R0: r0, R1: r1, A0: a, A1: a - span, Item: id}
			place(it.Kids, a)
			a -= span
		}
	}
	place(p.Top, math.Pi)
	return out
}

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

func frac(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
