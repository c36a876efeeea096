package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"
)

// benchUnits is the demo's fixed amount of work in the overhead benchmark:
// about 15 s of CPU on a 2-vCPU VM.
const benchUnits = 12000

// benchRun is one run of the benchmark's target: its CPU time (every thread of
// the process, profiling work included), its wall time, and the status of
// the collection when there was one.
type benchRun struct {
	cpu, wall float64
	st        *Status
}

// runTarget runs the demo for benchUnits units while collect profiles it
// (nil: nobody does); collect ends when the target does.
func runTarget(b *testing.B, collect func(ctx context.Context, url string) *Status) benchRun {
	d, err := spawnDemo("-work", strconv.Itoa(benchUnits))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan *Status, 1)
	go func() {
		if collect == nil {
			got <- nil
			return
		}
		got <- collect(ctx, d.URL)
	}()
	out, ps, err := d.Wait()
	cancel()
	st := <-got
	if err != nil {
		b.Fatal(err)
	}
	var r struct {
		Wall float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		b.Fatalf("target said %q: %v", out, err)
	}
	return benchRun{cpu: (ps.UserTime() + ps.SystemTime()).Seconds(), wall: r.Wall, st: st}
}

// attachAt returns a collector that attaches with budget and every kind,
// as attach does by default.
func attachAt(budget float64) func(ctx context.Context, url string) *Status {
	return func(ctx context.Context, url string) *Status {
		t, err := Probe(ctx, url)
		if err != nil {
			return nil
		}
		st := Run(ctx, t, Plan{Budget: budget, Kinds: Kinds, Window: time.Second}, func(Event) {})
		return &st
	}
}

// naive takes back-to-back 10 s CPU profiles until the target ends.
func naive(ctx context.Context, url string) *Status {
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/debug/pprof/profile?seconds=10", nil)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return nil
}

// BenchmarkOverhead measures what profiling costs a target doing a fixed
// amount of work (the demo, single-threaded, serving net/http/pprof):
// unprofiled, attached at budgets 10%, 1% and 0.1%, and under a naive
// collector taking back-to-back 10 s CPU profiles; then unprofiled again.
// The runs of one iteration are interleaved in that order, so that a
// change in the machine's load spreads over all of them. The slowdown of a
// run is the extra CPU time of the target's process over the mean of the
// two unprofiled runs, as a share of its run time (wall), which is how the
// budget is defined; cpu-share is the same extra as a share of the
// target's own CPU time (the throughput view, larger when the target gets
// less than a core). noise is the difference between the two unprofiled
// runs in the same terms. Each metric is the median over the iterations.
//
//	go test -run '^$' -bench Overhead -benchtime 3x ./live
func BenchmarkOverhead(b *testing.B) {
	conditions := []condition{{"10%", attachAt(0.10)}, {"1%", attachAt(0.01)}, {"0.1%", attachAt(0.001)}, {"naive", naive}}
	metrics := map[string][]float64{}
	for b.Loop() {
		base1 := runTarget(b, nil)
		var runs []benchRun
		for _, c := range conditions {
			runs = append(runs, runTarget(b, c.collect))
		}
		base2 := runTarget(b, nil)
		base := (base1.cpu + base2.cpu) / 2
		metrics["noise-%"] = append(metrics["noise-%"], 100*abs(base2.cpu-base1.cpu)/((base1.wall+base2.wall)/2))
		for i, c := range conditions {
			r := runs[i]
			metrics["slowdown-"+c.name+"-%"] = append(metrics["slowdown-"+c.name+"-%"], 100*(r.cpu-base)/r.wall)
			metrics["cpu-share-"+c.name+"-%"] = append(metrics["cpu-share-"+c.name+"-%"], 100*(r.cpu-base)/base)
			if r.st != nil {
				metrics["cost-"+c.name+"-%"] = append(metrics["cost-"+c.name+"-%"], 100*r.st.Cost())
			}
		}
		metrics["base-cpu-s"] = append(metrics["base-cpu-s"], base)
		metrics["base-wall-s"] = append(metrics["base-wall-s"], (base1.wall+base2.wall)/2)
		b.Logf("base cpu %.2fs/%.2fs wall %.1fs/%.1fs; %s", base1.cpu, base2.cpu, base1.wall, base2.wall, describeRuns(conditions, runs))
	}
	for name, v := range metrics {
		b.ReportMetric(median(v), name)
	}
}

// condition is one way of profiling the target in the benchmark.
type condition struct {
	name    string
	collect func(ctx context.Context, url string) *Status
}

func describeRuns(conditions []condition, runs []benchRun) string {
	s := ""
	for i, c := range conditions {
		s += fmt.Sprintf("%s: cpu %.2fs wall %.1fs", c.name, runs[i].cpu, runs[i].wall)
		if st := runs[i].st; st != nil {
			s += fmt.Sprintf(" (cost %.3f%%, %d windows, duty %.0f%%)", 100*st.Cost(), st.Windows, 100*st.DutyCycle())
		}
		s += "; "
	}
	return s
}

func abs(x float64) float64 { return max(x, -x) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
