package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

// TestWatchTogether: two demo targets, each attached in the background
// with a budget of its own, shown in one display by watch until both end:
//   - each one's accounted cost stays within its own budget;
//   - both status lines and timelines are in the one display;
//   - the together profile holds both targets' samples: per root frame,
//     its cpu values add up to that target's series, counted sample by
//     sample over the profiles (not through the call tree), and every
//     sample is under one of the two roots;
//   - its phases exist, over names qualified by the target;
//   - watch on the finished pair answers the same bytes as the first
//     watch's final state, twice.
func TestWatchTogether(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	run := func(code string) *kernel.Recorder { t.Helper(); return mustRun(t, s, code) }
	budgets := map[string]float64{"one": 0.02, "two": 0.05}
	// maxwindows ends each after its windows, however slow a loaded machine makes them
	run("attach demo:phases as one budget=2% maxwindows=5 kinds=cpu background=true")
	run("attach demo:agent as two budget=5% maxwindows=4 kinds=cpu background=true")
	first := run("watch one two").Text()
	for _, name := range []string{"one", "two"} {
		st, ended := attachments(s)[name].snapshot()
		t.Logf("%s: %d windows, cost %.4f of budget %.4f, spent %.4f s of %.4f s allowed", name, st.Windows, st.Cost(), st.Budget, st.Spent, st.Allowed)
		switch {
		case !ended:
			t.Errorf("%s still collects after watch returned", name)
		case st.Budget != budgets[name]:
			t.Errorf("%s has budget %v, want its own %v", name, st.Budget, budgets[name])
		case st.Windows != map[string]int{"one": 5, "two": 4}[name]:
			t.Errorf("%s gathered %d windows, want its maxwindows", name, st.Windows)
		case st.Overruns == 0 && (st.Spent > st.Allowed+1e-9 || st.Cost() > st.Budget):
			t.Errorf("%s: cost %v (spent %v s) above its budget %v (%v s allowed)", name, st.Cost(), st.Spent, st.Budget, st.Allowed)
		}
		for _, want := range []string{name + " ← ", fmt.Sprintf("stopped: the most windows (maxwindows=%d) are in", st.Windows), "phases of " + name + " over time:"} {
			if !strings.Contains(first, want) {
				t.Errorf("the display lacks %q:\n%s", want, first)
			}
		}
	}
	together := s.Get("together")
	if together == nil {
		t.Fatalf("no together profile:\n%s", first)
	}
	p := together.Profile
	got := rootSums(t, p)
	for _, name := range []string{"one", "two"} {
		want := cpuSum(s.Get(name).Profile)
		if want == 0 || got[name] != want {
			t.Errorf("together holds %d ns of cpu under %s, its series %d ns", got[name], name, want)
		}
	}
	if len(got) != 2 {
		t.Errorf("together's roots are %v, want one and two", got)
	}
	if n, want := len(p.Samples), len(s.Get("one").Profile.Samples)+len(s.Get("two").Profile.Samples); n != want {
		t.Errorf("together has %d samples, the two series %d", n, want)
	}
	ph := phasesKey.Get(together)
	if ph == nil || len(ph.Result.Phases) == 0 || !strings.Contains(first, "phases of together over time:") {
		t.Fatalf("no phases together:\n%s", first)
	}
	qualified := map[string]bool{}
	for _, n := range ph.Vectors.Names {
		root, _, ok := strings.Cut(n, ": ")
		qualified[root] = ok
	}
	if !qualified["one"] || !qualified["two"] {
		t.Errorf("the phase names are not qualified by both targets: %q", ph.Vectors.Names)
	}
	again, third := run("watch one two").Text(), run("watch one two").Text()
	if again != first || third != first {
		t.Errorf("watch on the finished pair differs from the first's final state:\nfirst:\n%s\nagain:\n%s\nthird:\n%s", first, again, third)
	}
}

// TestWatchInterrupt: interrupting watch ends the cell, not the
// collections; the together profile holds the windows taken until then,
// and the last statuses are shown.
func TestWatchInterrupt(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	for _, line := range []string{"attach demo:phases as one budget=10% kinds=cpu background=true",
		"attach demo:agent as two budget=10% kinds=cpu background=true"} {
		if _, err := RunForTest(t, s, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	waitWindows(t, s, "one", 1)
	waitWindows(t, s, "two", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rec, err := kernel.RunCell(ctx, s, "watch one two")
	if err != nil {
		t.Fatal(err)
	}
	got := rootSums(t, s.Get("together").Profile)
	for _, name := range []string{"one", "two"} {
		if _, ended := attachments(s)[name].snapshot(); ended {
			t.Errorf("%s stopped collecting when watch was interrupted", name)
		}
		if got[name] == 0 || !strings.Contains(rec.Text(), name+" ← ") {
			t.Errorf("together holds %d ns of %s's cpu; the display:\n%s", got[name], name, rec.Text())
		}
	}
	for _, line := range []string{"detach one", "detach two"} {
		if _, err := RunForTest(t, s, line); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// rootSums adds up p's cpu values per root frame, sample by sample.
func rootSums(t *testing.T, p *analysis.Profile) map[string]int64 {
	t.Helper()
	cpu, out := p.ValueIndex("cpu"), map[string]int64{}
	for i := range p.Samples {
		st := p.Stacks.At(p.Samples[i].Stack)
		if len(st) == 0 {
			t.Fatalf("sample %d of together has no stack", i)
		}
		out[p.Frames[st[0]].Name] += p.Value(&p.Samples[i], cpu)
	}
	return out
}

// cpuSum adds up p's cpu values, sample by sample.
func cpuSum(p *analysis.Profile) int64 {
	cpu, sum := p.ValueIndex("cpu"), int64(0)
	for i := range p.Samples {
		sum += p.Value(&p.Samples[i], cpu)
	}
	return sum
}

// TestWatchErrors: watch names two or more attachments, each once, each
// collecting cpu windows; anything else is a usage error saying what to
// write. Tab completes the attachments' names, each word.
func TestWatchErrors(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	for _, line := range []string{"attach demo:phases as a budget=10% kinds=cpu background=true",
		"attach demo:phases as g budget=10% kinds=goroutine background=true", "load demo:phasedemo as p"} {
		if _, err := RunForTest(t, s, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	for _, tt := range []struct{ line, want string }{
		{"watch", "name two or more (attached: a, g)"},
		{"watch a", "name two or more"},
		{"watch a nothing", "nothing is attached as nothing; attached: a, g"},
		{"watch a p", "p is a profile, but nothing is attached as p"},
		{"watch a a", "a is named twice"},
		{"watch a g", "g collects goroutine: watch puts cpu windows together"},
		{"watch a g as p", "g collects goroutine"},
	} {
		if _, err := RunForTest(t, s, tt.line); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s = %v, want an error saying %q", tt.line, err, tt.want)
		}
	}
	in := kernel.NewInterp(s)
	for code, want := range map[string]string{"watch ": "a g", "watch a ": "a g", "watch a g": "g", "watch x": ""} {
		if got := strings.Join(in.Complete(code, len(code)).Matches, " "); got != want {
			t.Errorf("Complete(%q) = %q, want %q", code, got, want)
		}
	}
}
