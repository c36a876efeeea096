package plotting

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// TestColours: on the toy, the classes of lib2 keep lib2's hue in shades
// told apart, the packages lib1, lib2 and lib3 are told apart, and a name
// gets the same colour every time.
func TestColours(t *testing.T) {
	v := toyViews(t)["fig2"]
	pal := newPalette(v)
	col := func(name string) string { return pal.colour(analysis.Split(name, analysis.LangAuto)) }
	lib2 := col("lib2")
	classes := []string{col("lib2.Lung.inhale"), col("lib2.Muscle.contract"), col("lib2.Nerve.transmit")}
	for i, c := range classes {
		if d := hueDist(hexHue(c), hexHue(lib2)); d > 2 {
			t.Errorf("lib2's class colour %s is %.0f° from lib2's %s, want its hue", c, d, lib2)
		}
		for _, c2 := range classes[i+1:] {
			if d := rgbDist(c, c2); d < 20 {
				t.Errorf("classes of lib2 have near-equal colours %s and %s (distance %d)", c, c2, d)
			}
		}
	}
	pkgs := []string{col("lib1"), lib2, col("lib3")}
	for i, c := range pkgs {
		for _, c2 := range pkgs[i+1:] {
			if d := rgbDist(c, c2); d < 25 {
				t.Errorf("packages have near-equal colours %s and %s (distance %d)", c, c2, d)
			}
		}
	}
	if newPalette(v).colour(elements(v, 0)) != pal.colour(elements(v, 0)) || col("lib2.Muscle.stop") != col("lib2.Muscle.stop") {
		t.Errorf("colours are not stable")
	}
}

// TestPlacesApart: any two places of the wheel can be told apart, so two
// top-level names on different places can.
func TestPlacesApart(t *testing.T) {
	p := &palette{place: map[string]int{}}
	for a := range places {
		for b := a + 1; b < places; b++ {
			p.place["a"], p.place["b"] = a, b
			if d := rgbDist(p.colour([]string{"a"}), p.colour([]string{"b"})); d < 25 {
				t.Errorf("places %d and %d: %s and %s, distance %d", a, b, p.colour([]string{"a"}), p.colour([]string{"b"}), d)
			}
		}
	}
}

// TestSpread checks the placing rule on random sets of names: distinct
// places while they last, a name alone on the place it wants takes it, the
// result does not depend on the order of the names, and a name alone on its
// place in two profiles has the same place in both.
func TestSpread(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	pool := make([]string, 300)
	for i := range pool {
		pool[i] = fmt.Sprintf("%s/p%d", []string{"github.com/a", "github.com/b", "golang.org/x", "k8s.io"}[i%4], i)
		if i%3 == 0 {
			pool[i] = fmt.Sprintf("std%d", i)
		}
	}
	pick := func() []string {
		n := 1 + r.Intn(places+10)
		return slices.Clone(pool[:n])
	}
	for range 200 {
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		a := pick()
		r.Shuffle(60, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		b := pick()
		pa, pb := spread(slices.Clone(a), places, topPlace), spread(b, places, topPlace)
		if len(a) <= places && len(distinct(pa)) != len(a) {
			t.Fatalf("%d names on %d distinct places", len(a), len(distinct(pa)))
		}
		rev := slices.Clone(a)
		slices.Reverse(rev)
		if again := spread(rev, places, topPlace); !maps.Equal(again, pa) {
			t.Fatalf("spread depends on the order of its names")
		}
		wa, wb := wanted(a), wanted(b)
		for _, s := range a {
			k := topPlace(s)
			if wa[k] == 1 && pa[s] != k {
				t.Fatalf("%s, alone on place %d, is at %d", s, k, pa[s])
			}
			if _, in := pb[s]; in && wa[k] == 1 && wb[k] == 1 && pa[s] != pb[s] {
				t.Fatalf("%s is alone on its place in both profiles, at %d and %d", s, pa[s], pb[s])
			}
		}
	}
}

func wanted(names []string) map[int]int {
	out := map[int]int{}
	for _, s := range names {
		out[topPlace(s)]++
	}
	return out
}

func distinct(m map[string]int) map[int]bool {
	out := map[int]bool{}
	for _, k := range m {
		out[k] = true
	}
	return out
}

func TestFamily(t *testing.T) {
	for _, c := range [][3]string{
		{"github.com/conprof/db", "github.com/conprof", "db"},
		{"golang.org/x/net", "golang.org/x", "net"},
		{"github.com/grpc-ecosystem/go-grpc-middleware/v2", "github.com/grpc-ecosystem", "go-grpc-middleware/v2"},
		{"org.apache.axis", "org.apache", "axis"},
		{"/usr/lib/python3.11/json", "/usr/lib/python3.11", "json"},
		{"runtime", "runtime", ""},
		{"lib2", "lib2", ""},
		{"script.py", "script.py", ""},
		{"https://cdn.example.com", "https://cdn.example.com", ""},
		{"example.com/v2", "example.com/v2", ""},
	} {
		if fam, own := family(c[0]); fam != c[1] || own != c[2] {
			t.Errorf("family(%q) = %q, %q; want %q, %q", c[0], fam, own, c[1], c[2])
		}
	}
}

// conprofPalette is the palette of the conprof golden's profile.
func conprofPalette(t *testing.T) *palette {
	p, err := analysis.Load(context.Background(), filepath.Join("testdata", "conprof.pb.gz"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	return newPalette(compaction.Compact(tr, compaction.NewState(tr, 1), p.DefaultValue))
}

// TestRelatedHues: on a real Go profile, the packages of one family
// (go.opentelemetry.io/otel, /contrib, /proto; github.com/conprof/...) are
// closer in hue than packages of different families, on average.
func TestRelatedHues(t *testing.T) {
	pal := conprofPalette(t)
	var same, other []float64
	for a := range pal.place {
		for b := range pal.place {
			if a >= b {
				continue
			}
			d := hueDist(hexHue(pal.colour([]string{a})), hexHue(pal.colour([]string{b})))
			if fa, _ := family(a); fa == first(family(b)) {
				same = append(same, d)
			} else {
				other = append(other, d)
			}
		}
	}
	t.Logf("%d pairs of one family %.0f° apart on average, %d others %.0f°", len(same), mean(same), len(other), mean(other))
	if len(same) < 5 || mean(same) > 30 || mean(same) > mean(other)/2 {
		t.Errorf("%d pairs of one family are %.0f° apart on average, %d others %.0f°; want families close", len(same), mean(same), len(other), mean(other))
	}
}

func first(a, _ string) string { return a }

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// TestColoursAcrossProfiles: the ten heap profiles of one program in the
// shared corpus (snapshots of a series, from 39 to 49 top-level names) give
// most of their common top-level names the same colour; ranks, as before,
// kept 12 of 39 from the first to the second and none to the last.
func TestColoursAcrossProfiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "parca", "pkg", "query", "testdata", "many", "*.pb.gz"))
	if len(files) < 2 {
		t.Skip("corpus absent")
	}
	var pals []*palette
	for _, f := range files {
		p, err := analysis.Load(context.Background(), f, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr := analysis.NewTree(p)
		pals = append(pals, newPalette(compaction.Compact(tr, compaction.NewState(tr, 1), p.DefaultValue)))
	}
	for i := 1; i < len(pals); i++ {
		same, common := 0, 0
		for top := range pals[0].place {
			if _, ok := pals[i].place[top]; ok {
				common++
				if pals[i].colour([]string{top}) == pals[0].colour([]string{top}) {
					same++
				}
			}
		}
		t.Logf("%s: %d of %d common top-level names keep their colour", filepath.Base(files[i]), same, common)
		if same*10 < common*6 || (len(pals[i].place) <= len(pals[0].place)+1 && same*10 < common*9) {
			t.Errorf("%s: %d of %d top-level names in common with %s keep their colour",
				filepath.Base(files[i]), same, common, filepath.Base(files[0]))
		}
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

// hexHue is the hue of a #rrggbb colour, in degrees.
func hexHue(c string) float64 {
	var r, g, b int
	fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
	return hueOf(float64(r)/255, float64(g)/255, float64(b)/255)
}

// TestLabelContrast: black labels are legible on every colour the palette
// gives (WCAG's contrast ratio at least 4.5:1, its level AA for text).
func TestLabelContrast(t *testing.T) {
	p := &palette{place: map[string]int{}, shade: map[[2]string]int{}}
	worst, at := 99.0, ""
	for k := range places {
		p.place["t"] = k
		for c := range shadeCells {
			p.shade[[2]string{"t", ".s"}] = c
			for _, third := range []string{"", ".a", ".b", ".c", ".d", ".e", ".f"} {
				e := []string{"t", ".s", third}
				if third == "" {
					e = e[:2]
				}
				if r := (luminance(p.colour(e)) + 0.05) / 0.05; r < worst {
					worst, at = r, p.colour(e)
				}
			}
		}
		if r := (luminance(p.colour([]string{"t"})) + 0.05) / 0.05; r < worst {
			worst, at = r, p.colour([]string{"t"})
		}
	}
	t.Logf("lowest contrast of black on a fill: %.2f (%s)", worst, at)
	if worst < 4.5 {
		t.Errorf("black on %s has contrast %.2f, want at least 4.5", at, worst)
	}
}

// luminance is WCAG's relative luminance of a #rrggbb colour.
func luminance(c string) float64 {
	var r, g, b int
	fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
	lin := func(v int) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
