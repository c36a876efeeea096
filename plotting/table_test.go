package plotting

import (
	"fmt"
	"math"
	"testing"
)

// fig2 is the ProfVis toy at Figure 2 built by hand (DESIGN.md §5).
func fig2() *Pic {
	v := makeView(&tnode{name: "lib1.Whale.breath", kids: []*tnode{{name: "lib1.Mammal.inhale", kids: []*tnode{
		{name: "lib2.Lung.inhale", kids: []*tnode{
			{name: "lib2.Muscle.contract", kids: []*tnode{
				{name: "lib2.Nerve.transmit", kids: []*tnode{{name: "lib3.Signal.travel", self: 3}}},
				{name: "lib3.Pressure.foo", kids: []*tnode{{name: "lib3.Blood.flow", self: 1}}},
			}},
			{name: "lib2.Muscle.stop", kids: []*tnode{{name: "lib2.Nerve.transmit", kids: []*tnode{{name: "lib3.Signal.travel", self: 2}}}}},
		}},
	}}}})
	return choose(&topDown{v: v, roots: v.Roots}, DefaultMaxNodes, 1).pic(v, true)
}

func TestFlameTable(t *testing.T) {
	p := fig2()
	rects := Flame(p, 1200, 18)
	want := []string{ // name x width y, pre-order, siblings by name
		"lib1.Whale.breath 0.00 1200.00 0", "lib1.Mammal.inhale 0.00 1200.00 18", "lib2.Lung.inhale 0.00 1200.00 36",
		"lib2.Muscle.contract 0.00 800.00 54", "lib2.Nerve.transmit 0.00 600.00 72", "lib3.Signal.travel 0.00 600.00 90",
		"lib3.Pressure.foo 600.00 200.00 72", "lib3.Blood.flow 600.00 200.00 90",
		"lib2.Muscle.stop 800.00 400.00 54", "lib2.Nerve.transmit 800.00 400.00 72", "lib3.Signal.travel 800.00 400.00 90",
	}
	for i, r := range rects {
		got := fmt.Sprintf("%s %.2f %.2f %.0f", p.Items[i].Name, r.X, r.W, r.Y)
		if i >= len(want) || got != want[i] {
			t.Errorf("Flame item %d = %q, want %q", i, got, want[min(i, len(want)-1)])
		}
	}
}

func TestRadialTable(t *testing.T) {
	p := fig2()
	secs := Radial(p, 600)
	// Six rings of equal area: r_d = 600·√(d/6). Angles in degrees from the left.
	want := []struct {
		a0, a1, r0, r1 float64
	}{
		{180, 0, 0, 244.95}, {180, 0, 244.95, 346.41}, {180, 0, 346.41, 424.26},
		{180, 60, 424.26, 489.90}, {180, 90, 489.90, 547.72}, {180, 90, 547.72, 600},
		{90, 60, 489.90, 547.72}, {90, 60, 547.72, 600},
		{60, 0, 424.26, 489.90}, {60, 0, 489.90, 547.72}, {60, 0, 547.72, 600},
	}
	for i, s := range secs {
		got := fmt.Sprintf("%.2f %.2f %.2f %.2f", s.A0*180/math.Pi, s.A1*180/math.Pi, s.R0, s.R1)
		w := want[i]
		if exp := fmt.Sprintf("%.2f %.2f %.2f %.2f", w.a0, w.a1, w.r0, w.r1); got != exp {
			t.Errorf("Radial item %d (%s) = %s, want %s", i, p.Items[i].Name, got, exp)
		}
		// Area ∝ weight: the fan is π·600²/2, each ring a sixth, 6 samples per ring.
		area := (s.A0 - s.A1) / 2 * (s.R1*s.R1 - s.R0*s.R0)
		if per := area / float64(p.Items[i].Total); math.Abs(per-math.Pi*600*600/12/6) > 1e-6 {
			t.Errorf("Radial item %d: area per sample %.4f, want %.4f", i, per, math.Pi*600*600/12/6)
		}
	}
}

func TestTidyTable(t *testing.T) {
	p := fig2()
	pl := Tidy(p, 100, 50, 30)
	// Leaves in slots 0, 1, 2 (x = 50, 150, 250); parents centred over their
	// first and last child (lib2.Lung.inhale over 100 and 250).
	want := []float64{175, 175, 175, 100, 50, 50, 150, 150, 250, 250, 250}
	for i, q := range pl {
		if q.X != want[i] || q.Y != float64(p.Items[i].Depth)*50+25 {
			t.Errorf("Tidy item %d (%s) at (%.2f, %.2f), want (%.2f, %.2f)", i, p.Items[i].Name, q.X, q.Y, want[i], float64(p.Items[i].Depth)*50+25)
		}
	}
}

// TestColours: one hue family per package; classes of one package get
// distinct neighbouring shades; the same name always gets the same colour.
func TestColours(t *testing.T) {
	v := toyViews(t)["fig2"]
	pal := newPalette(v)
	col := func(name string) string {
		for i := range v.Nodes {
			if v.Nodes[i].Name == name {
				return pal.colour(elements(v, int32(i)))
			}
		}
		t.Fatalf("no node %s", name)
		return ""
	}
	hue := func(c string) float64 {
		var r, g, b int
		fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
		return hueOf(float64(r)/255, float64(g)/255, float64(b)/255)
	}
	lung, muscle, nerve := col("lib2.Lung.inhale"), col("lib2.Muscle.contract"), col("lib2.Nerve.transmit")
	whale, signal := col("lib1.Whale.breath"), col("lib3.Signal.travel")
	for _, pair := range [][2]string{{lung, muscle}, {muscle, nerve}, {lung, nerve}} {
		if d := rgbDist(pair[0], pair[1]); d < 30 {
			t.Errorf("classes of lib2 have near-equal colours %s and %s (distance %d)", pair[0], pair[1], d)
		}
	}
	for _, c := range []string{lung, muscle, nerve} {
		if d := hueDist(hue(c), hue(lung)); d > 50 {
			t.Errorf("lib2 colours %s and %s are %.0f° apart, want one family", c, lung, d)
		}
		for _, other := range []string{whale, signal} {
			if d := hueDist(hue(c), hue(other)); d < 60 {
				t.Errorf("lib2 colour %s is only %.0f° from another package's %s", c, d, other)
			}
		}
	}
	if col("lib2.Muscle.stop") == "" || newPalette(v).colour(elements(v, 0)) != col(v.Nodes[0].Name) {
		t.Errorf("colours are not stable")
	}
}

// rgbDist is the sum of the channel differences of two #rrggbb colours.
func rgbDist(a, b string) int {
	var r1, g1, b1, r2, g2, b2 int
	fmt.Sscanf(a, "#%02x%02x%02x", &r1, &g1, &b1)
	fmt.Sscanf(b, "#%02x%02x%02x", &r2, &g2, &b2)
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	return abs(r1-r2) + abs(g1-g2) + abs(b1-b2)
}

func hueDist(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}

// hueOf is the hue of an RGB colour, in degrees.
func hueOf(r, g, b float64) float64 {
	max, min := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if max == min {
		return 0
	}
	var h float64
	switch max {
	case r:
		h = math.Mod((g-b)/(max-min), 6)
	case g:
		h = (b-r)/(max-min) + 2
	default:
		h = (r-g)/(max-min) + 4
	}
	return math.Mod(h*60+360, 360)
}

func TestLastSegment(t *testing.T) {
	for in, want := range map[string]string{
		"google.golang.org/grpc":                          "grpc",
		"github.com/grpc-ecosystem/go-grpc-middleware/v2": "go-grpc-middleware/v2",
		"net/http.(*conn)":                                "http.(*conn)",
		"runtime":                                         "runtime",
		"example.com/v2":                                  "example.com/v2",
		"example.com/pkg/vendor":                          "vendor",
	} {
		if got := lastSegment(in); got != want {
			t.Errorf("lastSegment(%q) = %q, want %q", in, got, want)
		}
	}
}
