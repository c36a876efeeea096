package plotting

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/compaction"
)

// TestSandwichPicture: the sandwich of lib2.Nerve.transmit in the ProfVis
// toy at full names: its two callers' chains above its row, lib3 below,
// each box's tooltip in terms of the target.
func TestSandwichPicture(t *testing.T) {
	p, err := formats.Demo("profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	v := compaction.Compact(tr, compaction.NewState(tr, 99), p.DefaultValue)
	s, err := compaction.NewSandwich(v, "lib2.Nerve.transmit")
	if err != nil {
		t.Fatal(err)
	}
	pic, err := Draw(s.Callees, Options{Layout: LayoutSandwich, Callers: s.Callers, Profile: "toy"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sandwich-toy.svg", pic.SVG)
	svg := string(pic.SVG)
	for _, want := range []string{
		"toy · sandwich · lib2.Nerve.transmit · samples · 5 samples (100.0%) · callers above (8 drawn), callees below (2 drawn)",
		"lib2.Muscle.contract\ncalls lib2.Nerve.transmit: 3 samples (60.0% of it)",
		"lib2.Muscle.stop\ncalls lib2.Nerve.transmit: 2 samples (40.0% of it)",
		"lib1.Whale.breath\ncalls lib2.Nerve.transmit: 3 samples (60.0% of it)\nof that, with no caller above: 3 samples",
		"lib3.Signal.travel\ntotal 5 samples (100.0% of lib2.Nerve.transmit)",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("sandwich picture lacks %q", want)
		}
	}
	// The target's row is drawn once, below its callers and above its callees.
	if n := strings.Count(svg, ">lib2.Nerve.transmit</text>"); n != 1 {
		t.Errorf("the target is labelled %d times, want once", n)
	}
}
