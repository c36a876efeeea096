package phase

import (
	"fmt"
	"strings"
	"testing"
)

// TestSweep scores the detector on both demo recordings over the parameter
// grid of the reference notes (A.6: ω ∈ {1, 3, 5}, ε, δ ∈ {0.7 … 0.99}),
// for each count, strict and provisional, next to the three baselines
// (one phase, every interval new, a threshold on consecutive windows). It
// logs the tables (go test -run Sweep -v) and checks that at the paper's
// parameters JIVE beats every baseline's ARI.
func TestSweep(t *testing.T) {
	for _, file := range []string{"phasedemo-1.trace", "phasedemo-2.trace"} {
		var b strings.Builder
		fmt.Fprintf(&b, "\n%s: count strict ω ε δ | P R F1 ARI rec phases\n", file)
		for _, c := range []Count{CountSelf, CountTotal, CountEntries} {
			p, v := demo(t, file, c)
			truth := demoTruth(p, v)
			for _, w := range []int{1, 3, 5} {
				for _, eps := range []float64{0.7, 0.8, 0.9, 0.95, 0.99} {
					for _, strict := range []bool{false, true} {
						r, err := Detect(t.Context(), v, Params{Window: w, Eps: eps, Delta: eps, Strict: strict}, nil)
						if err != nil {
							t.Fatal(err)
						}
						s := Score(truth, r.Of, 3)
						fmt.Fprintf(&b, "%s %v %d %.2f %.2f | %s\n", c, strict, w, eps, eps, row(s))
					}
				}
			}
			if c != CountSelf {
				continue
			}
			jive, _ := Detect(t.Context(), v, DefaultParams(), nil)
			js := Score(truth, jive.Of, 3)
			for _, bl := range []struct {
				name string
				of   []int32
			}{
				{"one phase", OnePhase(v.Len())},
				{"every interval new", EveryNew(v.Len())},
				{"consecutive ω=1 cos≤0.9", Consecutive(v, 1, 0.9)},
				{"consecutive ω=3 cos≤0.9", Consecutive(v, 3, 0.9)},
				{"consecutive ω=3 cos≤0.7", Consecutive(v, 3, 0.7)},
			} {
				s := Score(truth, bl.of, 3)
				fmt.Fprintf(&b, "baseline %s | %s\n", bl.name, row(s))
				if s.ARI >= js.ARI {
					t.Errorf("%s: baseline %s ARI %.3f ≥ JIVE's %.3f", file, bl.name, s.ARI, js.ARI)
				}
			}
		}
		t.Log(b.String())
	}
}

func row(s Scores) string {
	return fmt.Sprintf("%.2f %.2f %.2f %.3f %.2f %d", s.Precision, s.Recall, s.F1, s.ARI, s.Recurrence, s.Phases)
}
