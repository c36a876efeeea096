package plotting

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// radialRadius is the fan's radius, in pixels; radialBar the radius of
// the centre when it is a start-up chain's bar.
const (
	radialRadius = 420.0
	radialBar    = 24.0
)

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
// sector on the next ring. When the top items are all start-up chains'
// bars, the centre is a thin half disc (radialBar) and the other rings
// share the rest, with equal areas.
func Radial(p *Pic, radius float64) []Sector {
	out := make([]Sector, len(p.Items))
	n := int(p.Depth) + 1
	ring := func(d int) (float64, float64) { return Ring(d, n, radius) }
	if bars(p) && n > 1 {
		ring = func(d int) (float64, float64) {
			if d == 0 {
				return 0, radialBar
			}
			r0, r1 := Ring(d-1, n-1, 1)
			at := func(f float64) float64 {
				return math.Sqrt(radialBar*radialBar + f*f*(radius*radius-radialBar*radialBar))
			}
			return at(r0), at(r1)
		}
	}
	var place func(ids []int32, a float64)
	place = func(ids []int32, a float64) {
		for _, id := range ids {
			it := &p.Items[id]
			span := frac(it.Total, p.Scale) * math.Pi
			r0, r1 := ring(int(it.Depth))
			out[id] = Sector{R0: r0, R1: r1, A0: a, A1: a - span, Item: id}
			place(it.Kids, a)
			a -= span
		}
	}
	place(p.Top, math.Pi)
	return out
}

// paintRadial draws p as ProfVis's fan, one sector per item with its label
// where it fits.
func paintRadial(w io.Writer, p *Pic, o Options) error {
	sectors := Radial(p, radialRadius)
	cx, cy := margin+radialRadius, header+margin+radialRadius
	c := newCanvas(w, p, o, "r", 2*(radialRadius+margin), cy+margin)
	for i, sc := range sectors {
		arc := (sc.A0 - sc.A1) * sc.R1
		c.node(i, arc)
		c.printf(`<path d="%s" fill="%s"%s/>`, sectorPath(cx, cy, sc), c.fill(i), separator(arc, 0.75))
		radialLabel(c.svgWriter, cx, cy, sc, label(p, &p.Items[i]))
		c.closeGroup()
	}
	return c.close()
}

// bars reports whether p's top items are all start-up chains' bars.
func bars(p *Pic) bool {
	for _, t := range p.Top {
		if !p.Items[t].Startup {
			return false
		}
	}
	return len(p.Top) > 0
}

// polar returns the SVG point at radius r and angle a (radians,
// counter-clockwise, y up) around (cx, cy).
func polar(cx, cy, r, a float64) (float64, float64) {
	return cx + r*math.Cos(a), cy - r*math.Sin(a)
}

// sectorPath draws an annular sector clockwise along the outer arc and back
// along the inner one; a sector with no inner radius is a pie slice.
func sectorPath(cx, cy float64, sc Sector) string {
	var b strings.Builder
	x0, y0 := polar(cx, cy, sc.R1, sc.A0)
	x1, y1 := polar(cx, cy, sc.R1, sc.A1)
	large := 0
	if sc.A0-sc.A1 > math.Pi {
		large = 1
	}
	if sc.R0 <= 0 {
		writef(&b, "M%.2f %.2fL%.2f %.2fA%.2f %.2f 0 %d 1 %.2f %.2fZ", cx, cy, x0, y0, sc.R1, sc.R1, large, x1, y1)
		return b.String()
	}
	x2, y2 := polar(cx, cy, sc.R0, sc.A1)
	x3, y3 := polar(cx, cy, sc.R0, sc.A0)
	writef(&b, "M%.2f %.2fA%.2f %.2f 0 %d 1 %.2f %.2fL%.2f %.2fA%.2f %.2f 0 %d 0 %.2f %.2fZ",
		x0, y0, sc.R1, sc.R1, large, x1, y1, x2, y2, sc.R0, sc.R0, large, x3, y3)
	return b.String()
}

// radialLabel writes a sector's label where it fits: along the arc when the
// arc is long enough, else along the radius, else not at all. The centre
// half disc gets a horizontal label.
func radialLabel(s *svgWriter, cx, cy float64, sc Sector, text caption) {
	mid := (sc.A0 + sc.A1) / 2
	if sc.R0 <= 0 && sc.A0-sc.A1 >= math.Pi-1e-9 { // the only top item: the whole half disc
		if l := text.fit(1.6 * sc.R1); l != "" {
			s.centred(cx, cy-sc.R1*0.4, 0, l)
		}
		return
	}
	if sc.R0 <= 0 { // a slice of the centre: label it as a ring from a fifth of its radius
		sc.R0 = sc.R1 / 5
	}
	rm := (sc.R0 + sc.R1) / 2
	thick := sc.R1 - sc.R0
	arc := (sc.A0 - sc.A1) * rm
	deg := mid * 180 / math.Pi
	x, y := polar(cx, cy, rm, mid)
	// Straight text along a curved ring leaves it by L²/(8·rm) at its ends:
	// keep that within the ring.
	chord := math.Sqrt(4 * rm * math.Max(thick-fontSize, 0))
	along, across := text.fit(math.Min(arc-4, chord)), text.fit(thick-4)
	switch {
	case thick >= fontSize+2 && len(along) >= len(across) && along != "":
		s.centred(x, y, 90-deg, along)
	case arc >= fontSize+2 && across != "":
		rot := -deg
		if deg > 90 {
			rot = 180 - deg
		}
		s.centred(x, y, rot, across)
	}
}

func writef(b *strings.Builder, format string, args ...any) { fmt.Fprintf(b, format, args...) }
