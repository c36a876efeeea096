package commands

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
	"github.com/proflens/proflens/live/demo"
	"github.com/proflens/proflens/phase"
)

// liveStatus returns the json bundle the cell's status display shows last.
func liveStatus(t *testing.T, rec *kernel.Recorder) map[string]any {
	t.Helper()
	var last map[string]any
	for _, e := range rec.Events {
		if j, ok := e.Data["application/json"].(map[string]any); ok && j["duty_cycle"] != nil {
			last = j
		}
	}
	if last == nil {
		t.Fatalf("no status bundle in %v", rec.Text())
	}
	return last
}

// checkBudget: the json bundle has the keys and a cost within the
// budget.
func checkBudget(t *testing.T, st map[string]any) {
	t.Helper()
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !slices.Equal(keys, []string{"agent", "budget", "cost", "duty_cycle", "estimated_slowdown", "kinds", "target", "windows"}) {
		t.Errorf("json keys %v", keys)
	}
	if st["cost"].(float64) > st["budget"].(float64) || st["windows"].(int) == 0 {
		t.Errorf("status %v: want windows and a cost within the budget", st)
	}
}

// truth returns, per window of a live CPU series, the phase the demo was
// in for most of the window's CPU time (its pprof label), "" for a window
// without samples (idle).
func truth(p *analysis.Profile) []string {
	cpu := p.ValueIndex("cpu")
	var out []string
	for i := 0; i+1 < len(p.Intervals); i++ {
		by := map[string]int64{}
		for s := p.Intervals[i]; s < p.Intervals[i+1]; s++ {
			if l := p.Labels(&p.Samples[s])["phase"]; len(l) > 0 {
				by[l[0]] += p.Value(&p.Samples[s], cpu)
			}
		}
		best := ""
		for l, v := range by {
			if best == "" || v > by[best] || (v == by[best] && l < best) {
				best = l
			}
		}
		out = append(out, best)
	}
	return out
}

// TestAttachFindsPhases is the test: the demo target, started on
// 127.0.0.1 with its known phases, attached with budget 1%: the cost
// accounted stays within the budget at every update, and the phases found
// over the windows are scored against the phases the demo labelled (ARI
// and boundary recall within one window, as phase.Score does).
func TestAttachFindsPhases(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	rec, err := RunForTest(t, s, "attach demo:phases as run budget=1% for=40s kinds=cpu")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Events {
		if j, ok := e.Data["application/json"].(map[string]any); ok && j["cost"] != nil && j["cost"].(float64) > 0.01 {
			t.Errorf("an update shows cost %v above the 1%% budget", j["cost"])
		}
	}
	checkBudget(t, liveStatus(t, rec))
	l := s.Get("run")
	want, got := phase.IDs(truth(l.Profile)), phasesKey.Get(l).Result.Of
	sc := phase.Score(want, got, 1)
	t.Logf("%d windows: truth %v\ndetected %v\nARI %.2f, boundary recall %.2f, precision %.2f, %d phases",
		len(got), want, got, sc.ARI, sc.Recall, sc.Precision, sc.Phases)
	if raceEnabled {
		return // a race-instrumented target is several times slower: few windows, scores not meaningful
	}
	if len(got) < 20 || sc.ARI < 0.5 || sc.Recall < 0.5 {
		t.Errorf("%d windows, ARI %.2f, recall %.2f: want at least 20 windows and both scores at least 0.5", len(got), sc.ARI, sc.Recall)
	}
}

// TestAttachBackground: a background collection lets later cells run;
// profiles shows its progress; the profile grows between cells and every
// command reads it; detach ends it and keeps what it gathered.
func TestAttachBackground(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	run := func(code string) *kernel.Recorder { t.Helper(); return mustRun(t, s, code) }
	rec := run("attach demo:agent as bg budget=10% kinds=cpu,goroutine background=true")
	if !strings.Contains(rec.Text(), "collecting in the background") {
		t.Errorf("attach background answered %q", rec.Text())
	}
	waitWindows(t, s, "bg", 2)
	first := len(s.Get("bg").Profile.Intervals)
	if got := run("profiles").Text(); !strings.Contains(got, "collecting: ") {
		t.Errorf("profiles does not show the collection's progress:\n%s", got)
	}
	waitWindows(t, s, "bg", first+1)
	if got := run("top bg n=3\nphases bg\ninfo bg_goroutine").Text(); !strings.Contains(got, "phases of bg") {
		t.Errorf("commands on the live profile:\n%s", got)
	}
	rec = run("detach bg")
	checkBudget(t, liveStatus(t, rec))
	if !strings.Contains(rec.Text(), "stopped: detached") {
		t.Errorf("detach answered %q", rec.Text())
	}
	if got := run("profiles").Text(); strings.Contains(got, "collecting") || s.Get("bg") == nil {
		t.Errorf("after detach, profiles =\n%s", got)
	}
	if _, err := RunForTest(t, s, "detach bg"); err == nil {
		t.Errorf("a second detach succeeded")
	}
}

// waitWindows runs cells until profile name has n intervals (windows).
func waitWindows(t *testing.T, s *kernel.Session, name string, n int) {
	t.Helper()
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); {
		RunForTest(t, s, "sleep 200ms")
		if l := s.Get(name); l != nil && len(l.Profile.Intervals)-1 >= n {
			return
		}
	}
	t.Fatalf("%s has fewer than %d windows after 40s", name, n)
}

// TestAttachInterrupt: interrupting attach ends collection and keeps
// everything gathered; the cell ends without an error.
func TestAttachInterrupt(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	rec, err := kernel.RunCell(ctx, s, "attach demo:phases as run budget=10% kinds=cpu")
	if err != nil {
		t.Fatal(err)
	}
	if st := liveStatus(t, rec); st["windows"].(int) == 0 || !strings.Contains(rec.Text(), "stopped: interrupted") || s.Get("run") == nil {
		t.Errorf("interrupted attach: %v\n%s", st, rec.Text())
	}
}

// TestAttachFaults: a target that is not there or not a pprof server is
// an error; one that dies mid-collection ends it with a message, and the
// windows gathered are kept.
func TestAttachFaults(t *testing.T) {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hello")) }))
	defer web.Close()
	for _, tt := range []struct{ target, want string }{
		{"http://127.0.0.1:1", "connection refused"},
		{web.URL, "is not a pprof server"},
		{"demo:nothing", "the demo targets are demo:phases"},
		{"ftp://x", "is not an http URL"},
	} {
		if _, err := RunForTest(t, nil, "attach "+tt.target); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("attach %s = %v, want an error saying %q", tt.target, err, tt.want)
		}
	}
	d, err := demo.Spawn(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer d.Stop()
	s := kernel.NewSession(t.TempDir(), testTable())
	time.AfterFunc(4*time.Second, func() { d.Kill() })
	rec, err := RunForTest(t, s, "attach "+d.URL+" as run budget=10% kinds=cpu for=30s")
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Stdout("stderr"); !strings.Contains(got, "the target stopped answering") || !strings.Contains(got, "windows gathered are kept in run") ||
		s.Get("run") == nil {
		t.Errorf("target died: stderr %q", got)
	}
}

// TestAttachOptions: wrong options are usage errors naming what to write.
func TestAttachOptions(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"attach demo:phases budget=0", "budget=0: write a share above 0"},
		{"attach demo:phases kinds=cpu,disk", `"disk" is not a kind`},
		{"attach demo:phases kinds=trace", "trace needs cpu"},
		{"attach demo:phases window=1.5s", "want whole seconds"},
		{"attach demo:phases using=missing.json", "missing.json"},
		{"detach", "0 attachments"},
	} {
		if _, err := RunForTest(t, nil, tt.line); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s = %v, want an error saying %q", tt.line, err, tt.want)
		}
	}
}

// TestAttachControl: a background attachment is steered while it runs:
// its budget changes (the status then says what the budgets allowed), a
// trigger fires on the live data and its trace window joins a series of
// its own, pause stops new windows and resume brings them back, reset
// starts the series anew.
func TestAttachControl(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	run := func(code string) string { t.Helper(); return mustRun(t, s, code).Text() }
	run("attach demo:phases as bg budget=5% kinds=cpu,goroutine background=true")
	waitWindows(t, s, "bg", 2)
	if got := run("attach bg budget=0.5%"); !strings.Contains(got, "budgets allowed (0.5% since") {
		t.Errorf("attach bg budget=0.5%% answered %q", got)
	}
	if got := run("attach bg budget=5% when=goroutines>0 then=trace"); !strings.Contains(got, "trigger 1, when goroutines>0 then trace") {
		t.Errorf("attach bg when= then= answered %q", got)
	}
	poll(t, s, "the trigger's trace window", func() bool { return s.Get("bg_trace") != nil })
	if got := run("profiles"); !strings.Contains(got, "fired 1×") && !strings.Contains(run("attach bg"), "fired 1×") {
		t.Errorf("the status does not say the trigger fired:\n%s", got)
	}
	paused := windowsOf(t, s, "bg")
	if got := run("pause bg"); !strings.Contains(got, "; paused") {
		t.Errorf("pause answered %q", got)
	}
	time0 := statusOf(t, s, "bg").Elapsed
	poll(t, s, "three seconds paused", func() bool {
		run("attach bg") // asks for the status: no window comes while paused
		return statusOf(t, s, "bg").Elapsed > time0+3*time.Second
	})
	if n := windowsOf(t, s, "bg"); n > paused+3 { // the windows in flight when it paused may finish
		t.Errorf("%d windows while paused, %d before", n, paused)
	}
	before := windowsOf(t, s, "bg")
	run("resume bg")
	poll(t, s, "windows after resume", func() bool { return windowsOf(t, s, "bg") > before+1 })
	grown := len(s.Get("bg").Profile.Intervals) - 1
	run("attach bg reset=true")
	poll(t, s, "a series started anew", func() bool {
		l := s.Get("bg")
		return l != nil && len(l.Profile.Intervals)-1 < grown
	})
	run("detach bg")
}

// TestAttachBudgets: budgets are shown as written at every magnitude; a
// budget above 100% is refused saying what a budget is; one that can pay
// for nothing says why and what would.
func TestAttachBudgets(t *testing.T) {
	if _, err := RunForTest(t, nil, "attach demo:phases budget=150%"); err == nil || !strings.Contains(err.Error(), "at most 100%") {
		t.Errorf("budget=150%% = %v", err)
	}
	_, err := RunForTest(t, nil, "attach demo:phases as tiny budget=0.001% for=5s")
	if err == nil || !strings.Contains(err.Error(), "a budget of 0.001% pays") || !strings.Contains(err.Error(), "would pay for one a minute") {
		t.Errorf("budget=0.001%% = %v, want why nothing can be collected and what budget would", err)
	}
	rec, err := RunForTest(t, nil, "attach demo:phases as small budget=0.1% for=2s kinds=cpu")
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Text(); !strings.Contains(got, "of a 0.1% budget") || strings.Contains(got, "%%") {
		t.Errorf("budget=0.1%% shows:\n%s", got)
	}
}

// poll runs cells until ok holds, for at most a minute.
func poll(t *testing.T, s *kernel.Session, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		RunForTest(t, s, "sleep 200ms")
		if ok() {
			return
		}
	}
	t.Fatalf("no %s after a minute", what)
}

// statusOf returns the latest status of the attachment name.
func statusOf(t *testing.T, s *kernel.Session, name string) live.Status {
	t.Helper()
	a := attachments(s)[name]
	if a == nil {
		t.Fatalf("%s is not attached", name)
	}
	st, _ := a.snapshot()
	return st
}

func windowsOf(t *testing.T, s *kernel.Session, name string) int { return statusOf(t, s, name).Windows }
