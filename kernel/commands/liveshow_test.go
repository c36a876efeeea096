package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/live"
)

// TestSummaryTable: goroutine snapshots are not added up (the last one is
// what was observed, their mean the projection, to a tenth); additive
// counts project rounded to the nearest unit.
func TestSummaryTable(t *testing.T) {
	a := newAttachment("run", "demo:phases", []live.Kind{live.CPU, live.Goroutine}, "", nil)
	st := live.Status{Elapsed: 10 * time.Second, Kinds: []live.KindStatus{
		{Kind: live.CPU, Windows: 3, Seconds: 3, Observed: 1_000_000_001},
		{Kind: live.Goroutine, Windows: 6, Observed: 71, Last: 12},
	}}
	text := summaryTable("run", a, st).Plain()
	for _, want := range []string{"3.33s", "11.8", "12"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "71") {
		t.Errorf("summary adds the goroutine snapshots up:\n%s", text)
	}
}

// TestStatusLine: shares at every magnitude, as written; what the budget
// cannot pay for and when the others come.
func TestStatusLine(t *testing.T) {
	st := live.Status{Target: "http://x", Server: "net/http/pprof", Budget: 0.001, Elapsed: 10 * time.Second, Spent: 0.005,
		Usable: 0.0002, Kinds: []live.KindStatus{
			{Kind: live.CPU, Windows: 2, Next: -1},
			{Kind: live.Heap, Next: 14 * time.Second},
			{Kind: live.Trace, Never: "each collection reserves 100ms", Next: -1},
		}}
	got := statusLine("run", st)
	for _, want := range []string{"cost accounted 0.05% of a 0.1% budget", "use at most 0.02%", "heap: first window in about 4s",
		"trace: never at this budget: each collection reserves 100ms"} {
		if !strings.Contains(got, want) {
			t.Errorf("status line lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "%%") {
		t.Errorf("status line doubles a percent sign:\n%s", got)
	}
}

// TestStatusLineWaits: a triggered collection waiting for credit says when
// it comes; a budget above the agent's own says the agent's caps it.
func TestStatusLineWaits(t *testing.T) {
	st := live.Status{Target: "http://x", Server: "proflens agent", Budget: 0.05, AgentBudget: 0.01, Elapsed: 10 * time.Second,
		Kinds: []live.KindStatus{
			{Kind: live.CPU, Windows: 2, Next: -1},
			{Kind: live.Trace, Waiting: 1, WaitNext: 15 * time.Second, Next: -1, Manual: true},
			{Kind: live.Mutex, Waiting: 2, WaitNext: -1, Next: -1, Manual: true},
		}}
	got := statusLine("run", st)
	for _, want := range []string{"trace: 1 triggered collection waiting for credit, the first in about 5s",
		"mutex: 2 triggered collections waiting for credit, the first when its credit allows",
		"the agent keeps its own budget of 1% (the one its program started it with) and refuses what would pass it: at most 1% of the 5% will be spent"} {
		if !strings.Contains(got, want) {
			t.Errorf("status line lacks %q:\n%s", want, got)
		}
	}
	st.Budget = 0.01
	if got := statusLine("run", st); strings.Contains(got, "its own budget") {
		t.Errorf("a budget within the agent's says the agent caps it:\n%s", got)
	}
}
