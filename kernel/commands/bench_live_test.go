package commands

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live/demo"
)

// overheadUnits is the demo's fixed amount of work in BenchmarkOverhead:
// about 15 s of CPU on a 2-vCPU VM.
const overheadUnits = 12000

// overheadRun is one run of the target: its CPU time (every thread,
// profiling work included) and wall time, the kernel's CPU time meanwhile
// (this process: decoding, series, phases, timelines), and the cost the
// attachment accounted.
type overheadRun struct {
	cpu, wall, kernel, cost float64
}

// runOverhead runs the demo for overheadUnits units; with budget > 0 a
// kernel session attaches to it meanwhile, as a notebook cell would, and
// the attachment ends with the target.
func runOverhead(b *testing.B, budget string) overheadRun {
	d, err := demo.Spawn(os.Args[0], "-work", strconv.Itoa(overheadUnits))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan float64, 1)
	k0 := selfCPU()
	go func() {
		if budget == "" {
			got <- 0
			return
		}
		s := kernel.NewSession(b.TempDir(), testTable())
		defer s.Close()
		rec, _ := kernel.RunCell(ctx, s, "attach "+d.URL+" as run budget="+budget)
		cost := 0.0
		for _, e := range rec.Events {
			if j, ok := e.Data["application/json"].(map[string]any); ok && j["cost"] != nil {
				cost = j["cost"].(float64)
			}
		}
		got <- cost
	}()
	out, ps, err := d.Wait()
	cancel()
	cost := <-got
	kcpu := (selfCPU() - k0).Seconds()
	if err != nil {
		b.Fatal(err)
	}
	var r struct {
		Wall float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		b.Fatalf("target said %q: %v", out, err)
	}
	return overheadRun{cpu: (ps.UserTime() + ps.SystemTime()).Seconds(), wall: r.Wall, kernel: kcpu, cost: cost}
}

// selfCPU is this process's CPU time: the kernel's.
func selfCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// busy keeps every CPU of the machine busy with demo targets running
// their hash phase, and returns what stops them.
func busy(b *testing.B) func() {
	var procs []*demo.Process
	for range 2 {
		p, err := demo.Spawn(os.Args[0], "-schedule", "hash:1s")
		if err != nil {
			b.Fatal(err)
		}
		procs = append(procs, p)
	}
	return func() {
		for _, p := range procs {
			p.Stop()
		}
	}
}

// BenchmarkOverhead measures what live profiling costs a target doing a
// fixed amount of work (the demo, single-threaded, serving net/http/pprof)
// with the kernel's own processing included: a kernel session attaches as
// a notebook cell does, so every window is decoded, joins its series,
// has its phases found and its timeline drawn, in this process, on the
// same machine. Each iteration runs, on a quiet machine and then on a
// busy one (two more processes keeping both CPUs busy): unprofiled,
// attached at 10% and at 1%, unprofiled again. Per condition it reports:
//   - slowdown-wall: how much longer the work took than the mean of the
//     two unprofiled runs, the slowdown a user sees, which the kernel's
//     work competing for the CPUs is part of;
//   - slowdown-cpu: the target's extra CPU time as a share of its run
//     time, the definition of the budget;
//   - kernel-cpu: the kernel's CPU time as a share of the target's run
//     time;
//   - cost: what the attachment accounted, which includes the kernel's
//     own work on the windows since the target is local.
//
// noise-wall is the difference between the two unprofiled runs. Medians
// over the iterations.
//
//	go test -run '^$' -bench Overhead -benchtime 1x ./kernel/commands
func BenchmarkOverhead(b *testing.B) {
	metrics := map[string][]float64{}
	add := func(name string, v float64) { metrics[name] = append(metrics[name], v) }
	for b.Loop() {
		for _, load := range []string{"quiet", "busy"} {
			stop := func() {}
			if load == "busy" {
				stop = busy(b)
			}
			base1 := runOverhead(b, "")
			runs := map[string]overheadRun{"10%": runOverhead(b, "10%"), "1%": runOverhead(b, "1%")}
			base2 := runOverhead(b, "")
			stop()
			baseWall, baseCPU := (base1.wall+base2.wall)/2, (base1.cpu+base2.cpu)/2
			add(load+"-noise-wall-%", 100*abs(base2.wall-base1.wall)/baseWall)
			for name, r := range runs {
				add(load+"-slowdown-wall-"+name+"-%", 100*(r.wall-baseWall)/baseWall)
				add(load+"-slowdown-cpu-"+name+"-%", 100*(r.cpu-baseCPU)/r.wall)
				add(load+"-kernel-cpu-"+name+"-%", 100*r.kernel/r.wall)
				add(load+"-cost-"+name+"-%", 100*r.cost)
			}
			b.Logf("%s: base wall %.1fs/%.1fs cpu %.2fs/%.2fs; 10%%: wall %.1fs cpu %.2fs kernel %.2fs cost %.3f%%; 1%%: wall %.1fs cpu %.2fs kernel %.2fs cost %.3f%%",
				load, base1.wall, base2.wall, base1.cpu, base2.cpu, runs["10%"].wall, runs["10%"].cpu, runs["10%"].kernel, 100*runs["10%"].cost,
				runs["1%"].wall, runs["1%"].cpu, runs["1%"].kernel, 100*runs["1%"].cost)
		}
	}
	for name, v := range metrics {
		b.ReportMetric(median(v), name)
	}
}

func abs(x float64) float64 { return max(x, -x) }

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
