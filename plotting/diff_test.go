package plotting

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// toyPair is a baseline and a new profile of the ProfVis toy's functions:
// in NEW, Muscle.contract's Nerve.transmit doubles, Pressure.foo is gone
// and Muscle.stop is unchanged.
func toyPair() (base, new *analysis.Profile) {
	stacks := [][]string{
		{"lib1.Whale.breath", "lib2.Lung.inhale", "lib2.Muscle.contract", "lib2.Nerve.transmit"},
		{"lib1.Whale.breath", "lib2.Lung.inhale", "lib2.Muscle.contract", "lib3.Pressure.foo"},
		{"lib1.Whale.breath", "lib2.Lung.inhale", "lib2.Muscle.stop"},
	}
	make := func(weights ...int64) *analysis.Profile {
		b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
		b.Profile().Lang = analysis.LangJVM
		for i, st := range stacks {
			var ids []int32
			for _, name := range st {
				ids = append(ids, b.Frame(analysis.Frame{Name: name}))
			}
			b.Add(b.Stack(ids), []int64{weights[i]}, 0, false, "", nil)
		}
		return b.Finish()
	}
	return make(3, 1, 2), make(6, 0, 2)
}

// diffView compacts the difference of the toy pair at level g, weighted by
// both sides.
func diffView(t *testing.T, g int) *compaction.View {
	base, new := toyPair()
	d, err := analysis.Compare(analysis.Side{Profile: base}, analysis.Side{Profile: new}, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(d)
	return compaction.Compact(tr, compaction.NewState(tr, g), analysis.DiffBoth)
}

// TestDiffPicture: the differential icicle of a difference colours growth
// red, a vanished node full blue and an unchanged one grey, says so in
// words, and gives both sides in every tooltip.
func TestDiffPicture(t *testing.T) {
	pic, err := Draw(diffView(t, 99), withTips(Options{Layout: LayoutDiff}, "base→new"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff-toy.svg", pic.SVG)
	svg := string(pic.SVG)
	for _, want := range []string{
		"base→new · differential icicle · samples: BASE 6 samples → NEW 8 samples (+33.3%)",
		"lib2.Nerve.transmit\ntotal: BASE 3 samples → NEW 6 samples, +3 samples (+100.0%)",
		`fill="` + rampFill(0.5) + `"/><text x="` /* Nerve.transmit: 3 → 6 */, `fill="#3232ff"`, /* Pressure.foo: gone */
		"lib2.Muscle.stop\ntotal: BASE 2 samples → NEW 2 samples, 0 samples (±0%)",
		"Red: more weight in NEW than in BASE; blue: less; grey: unchanged.",
		"expand base→new ", // the caller's commands
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("differential icicle lacks %q", want)
		}
	}
}

// TestRampFill: the colour scale runs from full blue through grey to full
// red, symmetric, and clamps beyond ±1.
func TestRampFill(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want string
	}{{-2, "#3232ff"}, {-1, "#3232ff"}, {-0.5, "#8f8ff5"}, {0, "#ebebeb"}, {0.5, "#f58f8f"}, {1, "#ff3232"}, {3, "#ff3232"}} {
		if got := rampFill(tc.r); got != tc.want {
			t.Errorf("rampFill(%g) = %s, want %s", tc.r, got, tc.want)
		}
	}
	if got := changeFill(Change{Base: 3, New: 6}); got != rampFill(0.5) {
		t.Errorf("changeFill(3 → 6) = %s, want %s (half of the larger side)", got, rampFill(0.5))
	}
}
