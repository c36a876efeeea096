package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// handRecording: on main, main calls A twice (which calls B once each
// time), then B directly; on w, W calls A and stays open.
var handRecording = []analysistest.Recording{
	{Thread: "main", Start: 0, Ops: "+main +A +B - +B - - +A - +B - -"},
	{Thread: "w", Start: 2, Ops: "+W +A -"},
}

func path(p *analysis.Profile, stack int32) string {
	var names []string
	for _, f := range p.Stacks.At(stack) {
		names = append(names, p.Frames[f].Name)
	}
	return strings.Join(names, ";")
}

func TestCallsOfHandRecording(t *testing.T) {
	p := analysistest.Build(handRecording...)
	var got []string
	for i, c := range p.Calls {
		got = append(got, fmt.Sprintf("%d %s %s [%d,%d] depth %d parent %d", i, p.ThreadName(p.CallThread(&c)), path(p, c.Stack), c.Enter, c.Exit, c.Depth, c.Parent))
	}
	want := []string{
		"0 main main [0,11] depth 0 parent -1",
		"1 main main;A [1,6] depth 1 parent 0",
		"2 main main;A;B [2,3] depth 2 parent 1",
		"3 w W [2,4] depth 0 parent -1",
		"4 w W;A [3,4] depth 1 parent 3",
		"5 main main;A;B [4,5] depth 2 parent 1",
		"6 main main;A [7,8] depth 1 parent 0",
		"7 main main;B [9,10] depth 1 parent 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var events []string
	for _, e := range p.Events {
		sign := "+"
		if e.Exit {
			sign = "-"
		}
		events = append(events, fmt.Sprintf("%d%s%d", p.EventTime(e), sign, e.Call))
	}
	wantEvents := "0+0 1+1 2+2 2+3 3-2 3+4 4+5 4-4 4-3 5-5 6-1 7+6 8-6 9+7 10-7 11-0"
	if s := strings.Join(events, " "); s != wantEvents {
		t.Errorf("events: %s\nwant    %s", s, wantEvents)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "1 calls were still open") {
		t.Errorf("warnings = %q, want one about the call W left open", p.Warnings)
	}
}

// A thread's events stay in order whatever times the loader gives: an
// earlier time counts as the previous event's, and an exit with nothing
// open is refused.
func TestCallTimesStayInOrder(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	if b.Exit("t", 5) {
		t.Errorf("Exit with no open call = true, want false")
	}
	b.Enter("t", b.Frame(analysis.Frame{Name: "f"}), 10)
	b.Enter("t", b.Frame(analysis.Frame{Name: "g"}), 7)
	b.Exit("t", 3)
	b.Exit("t", 12)
	p := b.Finish()
	got := fmt.Sprint(p.Calls[0].Enter, p.Calls[0].Exit, p.Calls[1].Enter, p.Calls[1].Exit)
	if got != "10 12 10 10" {
		t.Errorf("times f [enter exit] g [enter exit] = %s, want 10 12 10 10", got)
	}
}
