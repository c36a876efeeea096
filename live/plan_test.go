package live

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// TestPlanCheck: a plan is refused exactly when one of its figures is out
// of range, and the error names that figure.
func TestPlanCheck(t *testing.T) {
	ok := Plan{Budget: 0.01, Kinds: []Kind{CPU}, Window: time.Second}
	tests := []struct {
		change func(*Plan)
		want   string // "" for a plan Run follows
	}{
		{func(p *Plan) {}, ""},
		{func(p *Plan) { p.Budget = 1 }, ""},
		{func(p *Plan) { p.Budget = 1e-9 }, ""},
		{func(p *Plan) { p.Budget = 0 }, "budget 0%"},
		{func(p *Plan) { p.Budget = -0.01 }, "budget"},
		{func(p *Plan) { p.Budget = 1.001 }, "at most 100%"},
		{func(p *Plan) { p.Budget = math.NaN() }, "budget"},
		{func(p *Plan) { p.Kinds = nil }, "no kinds"},
		{func(p *Plan) { p.Window = 999 * time.Millisecond }, "window 999ms"},
		{func(p *Plan) { p.Window = 1500 * time.Millisecond }, "whole seconds"},
		{func(p *Plan) { p.Window = 0 }, "window"},
		{func(p *Plan) { p.Window = 7 * time.Second }, ""},
		{func(p *Plan) { p.For = -time.Second }, "for=-1s"},
		{func(p *Plan) { p.MaxWindows = -1 }, "maxwindows=-1"},
		{func(p *Plan) { p.Patience = -time.Nanosecond }, "patience=-1ns"},
		{func(p *Plan) { p.For, p.MaxWindows, p.Patience = time.Hour, 1, time.Second }, ""},
	}
	for i, tc := range tests {
		p := ok
		tc.change(&p)
		err := p.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%d: %+v refused: %v", i, p, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%d: %+v: %v, want an error with %q", i, p, err, tc.want)
		}
	}
}

// TestParseRequests: what a trigger starts, KIND[:DURATION] comma
// separated, reads back as written; a goroutine snapshot, an unknown kind
// and a duration out of range are refused, naming what was given.
func TestParseRequests(t *testing.T) {
	good := map[string][]Request{
		"trace":               {{Kind: Trace}},
		"cpu:10s":             {{Kind: CPU, For: 10 * time.Second}},
		"mutex,block":         {{Kind: Mutex}, {Kind: Block}},
		" heap , trace:50ms ": {{Kind: Heap}, {Kind: Trace, For: minTrace}},
		"cpu:10m0s":           {{Kind: CPU, For: 10 * time.Minute}},
		"trace:1.5s":          {{Kind: Trace, For: 1500 * time.Millisecond}},
	}
	for s, want := range good {
		got, err := ParseRequests(s)
		if err != nil || len(got) != len(want) {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
			continue
		}
		words := make([]string, len(got))
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: request %d is %+v, want %+v", s, i, got[i], want[i])
			}
			words[i] = got[i].String()
		}
		if again, err := ParseRequests(strings.Join(words, ",")); err != nil || len(again) != len(got) || again[0] != got[0] {
			t.Errorf("%q: written back as %q, read as %v, %v", s, strings.Join(words, ","), again, err)
		}
	}
	bad := map[string]string{
		"goroutine":   `"goroutine" is not a collection a trigger starts`,
		"cpu,disk":    `"disk"`,
		"":            `""`,
		"cpu:1500ms":  `"cpu:1500ms": want a duration`,
		"trace:49ms":  `"trace:49ms"`,
		"cpu:10m1s":   `"cpu:10m1s"`,
		"heap:x":      `"heap:x"`,
		"block:0s":    `"block:0s"`,
		"mutex:-1s":   `"mutex:-1s"`,
		"trace:10m1s": `"trace:10m1s"`,
	}
	for s, want := range bad {
		if got, err := ParseRequests(s); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "then="+s+": ") {
			t.Errorf("%q: %v, %v; want an error with %q", s, got, err, want)
		}
	}
}

// TestUnpayableRun: without controls, a run whose budget pays for no
// collection ends before it starts one, saying so, naming the cheapest
// kind and a budget that would pay for it once a minute; that budget pays.
func TestUnpayableRun(t *testing.T) {
	d := startDemo(t)
	tg, err := Probe(context.Background(), d.URL)
	if err != nil {
		t.Fatal(err)
	}
	p := Plan{Budget: 1e-6, Kinds: []Kind{Heap, CPU}, Window: time.Second, For: time.Minute}
	s := Run(context.Background(), tg, p, func(Event) {})
	var pct float64
	if _, err := fmtScan(s.Stopped, "budget=", &pct); err != nil || !s.Unpayable || s.Windows != 0 ||
		!strings.HasPrefix(s.Stopped, "a budget of 0.0001% pays 60µs of the target's time in 1m0s, less than any collection reserves") || !strings.Contains(s.Stopped, "(the cheapest, cpu,") {
		t.Fatalf("status %+v (%v): want an end at once, why and what budget would pay", s, err)
	}
	if s.Elapsed >= p.For {
		t.Errorf("the run went on for %v", s.Elapsed)
	}
	p.Budget = pct / 100
	if g := newGovernor(p, 2); !g.payable() {
		t.Errorf("budget=%g%%, as %q says, pays for nothing", pct, s.Stopped)
	}
	p.Budget = pct / 100 / 2
	if g := newGovernor(p, 2); g.payable() {
		t.Errorf("half of budget=%g%% pays already: it is not what one a minute needs", pct)
	}
}
