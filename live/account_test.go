package live

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proflens/proflens/agent"
)

// TestAgentCostTaken: for a target on another machine, a window costs what
// the agent says serving it cost, 0 included, not the model's estimate.
func TestAgentCostTaken(t *testing.T) {
	d := startDemo(t, "-agent", "10%")
	f, url := newFaulty(t, d.URL, func(http.ResponseWriter, string, int) bool { return false })
	var n atomic.Int64
	says := []float64{0, 0.125}
	f.proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.URL.Path == "/debug/pprof/heap" {
			resp.Header.Set(agent.CostHeader, strconv.FormatFloat(says[n.Add(1)%2], 'g', -1, 64))
		}
		return nil
	}
	tg, err := Probe(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	tg.Local = false // the answers' parsing is proflens's machine's, not the target's
	var windows []*Window
	var overran []int // per window, by how many the overruns rose with it
	overruns := 0
	Run(context.Background(), tg, Plan{Budget: 0.5, Kinds: []Kind{Heap}, Window: time.Second, For: 6 * time.Second}, func(e Event) {
		if e.Window != nil {
			windows = append(windows, e.Window)
			overran = append(overran, e.Status.Overruns-overruns)
		}
		overruns = e.Status.Overruns
	})
	if len(windows) < 2 {
		t.Fatalf("%d heap windows, want 2 or more", len(windows))
	}
	for i, w := range windows {
		if want := says[(w.Seq+1)%2]; w.Cost != want {
			t.Errorf("window %d costs %g, want the agent's %g", w.Seq, w.Cost, want)
		}
		if w.Cost == 0 && overran[i] != 0 {
			t.Errorf("window %d cost nothing, but the overruns rose by %d", w.Seq, overran[i])
		}
	}
	// The first costs 0.125 s, more than the prior reserves (20 ms).
	if overran[0] != 1 {
		t.Errorf("the first window overran its reservation, but the overruns rose by %d", overran[0])
	}
}

// TestKindFigures: a kind's status sums its windows: the time they cover
// (at least a window each), its main value over them (a goroutine
// profile's goroutines, its first value), and that value in the last one.
func TestKindFigures(t *testing.T) {
	d := startDemo(t)
	p := fast
	p.Kinds, p.For = []Kind{Goroutine}, 4*time.Second
	rec := collect(t, context.Background(), d.URL, p, nil)
	var seconds, observed, last float64
	for _, w := range rec.windows {
		v := mainValue(w.Profile, Goroutine)
		if v != 0 {
			t.Fatalf("goroutine's main value is value %d of %v, want the first", v, w.Profile.ValueTypes)
		}
		if w.Profile.Duration != w.End-w.Start {
			t.Errorf("window %d lasts %v, but its profile says %v", w.Seq, w.End-w.Start, w.Profile.Duration)
		}
		seconds += max(Goroutine.length(p.Window), w.End-w.Start).Seconds()
		last = float64(w.Profile.Total(v))
		observed += last
	}
	ks := rec.final.Kinds
	if len(rec.windows) < 2 || len(ks) != 1 || ks[0].Windows != len(rec.windows) || ks[0].Seconds != seconds || ks[0].Observed != observed || ks[0].Last != last {
		t.Errorf("kinds %+v after %d windows: want %d windows, %g s, %g goroutines, %g in the last", ks, len(rec.windows), len(rec.windows), seconds, observed, last)
	}
}
