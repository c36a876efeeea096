package formats

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// figure renders the subtree of n in DESIGN.md's notation:
// "name [total] → child" for one child, "→ {a, b}" for several.
func figure(t *analysis.Tree, n int32, v int) string {
	s := fmt.Sprintf("%s [%d]", t.Name(n), t.Total[v][n])
	var kids []string
	t.Children(n, func(c int32) { kids = append(kids, figure(t, c, v)) })
	switch len(kids) {
	case 0:
		return s
	case 1:
		return s + " → " + kids[0]
	}
	return s + " → {" + strings.Join(kids, ", ") + "}"
}

func TestDemoProfVisFigure2(t *testing.T) {
	p, err := Demo("demo:profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "hprof" || p.Lang != analysis.LangJVM || len(p.Samples) != 3 || p.Total(0) != 6 {
		t.Fatalf("Demo = format %q lang %d, %d samples, total %d; want hprof JVM, 3 samples, total 6",
			p.Format, p.Lang, len(p.Samples), p.Total(0))
	}
	tr := analysis.NewTree(p)
	if len(tr.Roots) != 1 {
		t.Fatalf("roots = %d, want 1", len(tr.Roots))
	}
	got := figure(tr, tr.Roots[0], 0)
	want := "lib1.Whale.breath [6] → lib1.Mammal.inhale [6] → lib2.Lung.inhale [6] → " +
		"{lib2.Muscle.contract [4] → {lib2.Nerve.transmit [3] → lib3.Signal.travel [3], lib3.Pressure.foo [1] → " +
		"lib3.Blood.flow [1]}, lib2.Muscle.stop [2] → lib2.Nerve.transmit [2] → lib3.Signal.travel [2]}"
	if got != want {
		t.Errorf("Demo call tree =\n%s\nwant\n%s", got, want)
	}
	if f := p.Frames[p.Stacks.At(p.Samples[0].Stack)[0]]; f != (analysis.Frame{Name: "lib1.Whale.breath", File: "ToyProgram.java"}) {
		t.Errorf("root frame = %+v, want lib1.Whale.breath in ToyProgram.java", f)
	}
	if p.Thread(&p.Samples[0]) != "main" {
		t.Errorf("thread = %q, want main", p.Thread(&p.Samples[0]))
	}
}

func TestDemoUnknown(t *testing.T) {
	_, err := Demo("nope")
	if err == nil || !strings.Contains(err.Error(), "profvis-toy") {
		t.Errorf("Demo(nope) error = %v, want one listing profvis-toy", err)
	}
}
