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
