package live

import (
	"math"
	"testing"
	"time"

	"github.com/proflens/proflens/agent"
)

// TestCostPriors: before any CPU window is measured, one is expected to
// cost what sampling every CPU at agent.Hz costs over the window plus one
// encoding, whatever the window and the machine; a trace is as long as its
// share of the budget pays for once a window (at a whole core per second
// on before one is measured), between minTrace and the window.
func TestCostPriors(t *testing.T) {
	for _, cpus := range []int{1, 4, 16} {
		for _, w := range []time.Duration{time.Second, 10 * time.Second} {
			g := newGovernor(Plan{Budget: 0.01, Kinds: []Kind{CPU}, Window: w}, cpus)
			want := float64(cpus)*agent.Hz*agent.PerSample.Seconds()*w.Seconds() + priorEncode
			if got := g.costOf(CPU, w); math.Abs(got-want) > 1e-12*want {
				t.Errorf("%d CPUs, window %v: a CPU window is expected to cost %g s, want %g s", cpus, w, got, want)
			}
		}
	}
	inRange := 0
	for i, budget := range []float64{0.0001, 0.002, 0.02, 0.1, 0.3, 1, 0.0001, 0.002, 0.02, 0.1, 0.3, 1} {
		g := newGovernor(Plan{Budget: budget, Kinds: []Kind{CPU, Trace}, Window: 10 * time.Second}, 2)
		if i >= 6 { // after a trace measured at a quarter of a core per second on
			g.recent[Trace] = []float64{0.25}
			g.reallocate()
		}
		k := g.kinds[1]
		d, share := g.length(k), k.rate*g.window.Seconds()
		switch cost := g.costOf(Trace, d); {
		case d == minTrace && cost >= share, d == Trace.length(g.window) && cost <= share:
		case d > minTrace && d < Trace.length(g.window) && math.Abs(cost-share) <= 1e-9:
			inRange++
		default:
			t.Errorf("budget %g: a trace of %v expected to cost %g s, for a share of %g s a window; want the length that share pays, within %v and %v",
				budget, d, cost, share, minTrace, Trace.length(g.window))
		}
	}
	if inRange == 0 {
		t.Error("no budget gave a trace between its bounds")
	}
}
