package perf

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// What follows "comm pid/tid" on an event line, in perf script's order.
func TestEventFields(t *testing.T) {
	for _, c := range []struct {
		rest string
		want eventFields
	}{
		{"[003] 12.5: 250000 cycles:u: ", eventFields{time: true, period: 250000, hasPeriod: true, event: "cycles:u"}},
		{"250000 cpu-clock: ", eventFields{period: 250000, hasPeriod: true, event: "cpu-clock"}},
		{"7564/7598 1.5: 1 cycles:ppp: ", eventFields{time: true, period: 1, hasPeriod: true, event: "cycles:ppp"}},
		{"[x] 1.5: cycles:", eventFields{}},
		{"1.5: : x", eventFields{time: true}},
		{"1.5: 9 sched:sched_switch: prev_comm=a", eventFields{time: true, period: 9, hasPeriod: true, event: "sched:sched_switch"}},
		{"1.5: 9 cpu-clock:  ffffffff8101 f+0x3 ([kernel.kallsyms])", eventFields{time: true, period: 9, hasPeriod: true, event: "cpu-clock", frame: "ffffffff8101 f+0x3 ([kernel.kallsyms])"}},
		{"", eventFields{}},
	} {
		if got := parseEventFields(c.rest); got != c.want {
			t.Errorf("parseEventFields(%q) = %+v, want %+v", c.rest, got, c.want)
		}
	}
}

// Stack lines in every layout perf script writes, split into address,
// symbol and dso.
func TestFrameMatch(t *testing.T) {
	pp := &perfParser{}
	for _, c := range []struct{ line, want string }{
		{"\t  4005d6 main+0x10 (/bin/app)", "4005d6|main+0x10|/bin/app"},
		{"\t  4005d6 main", "4005d6|main|[unknown]"},
		{"\t  4005d6 (/bin/app)", "4005d6|[unknown]|/bin/app"},
		{"\t  4005d6", "4005d6|[unknown]|[unknown]"},
		{"  b3cea6c4\tLock::unlock() (/system/lib/libc.so)", "b3cea6c4|Lock::unlock()|/system/lib/libc.so"},
		{"\t 7f44 _IO_new_file_write (inlined)", "7f44|_IO_new_file_write|inlined"},
		{"\t 7f44 std::function<int (int)>::operator()", "7f44|std::function<int (int)>::operator()|[unknown]"},
		{"\t 7f44 f ([kernel.kallsyms])", "7f44|f|[kernel.kallsyms]"},
		{"\t 7f44 g (/memfd:x (deleted))", "7f44|g|/memfd:x (deleted)"},
		{"\t ABCDEF0 h", "ABCDEF0|h|[unknown]"},
		{"\t 09af h", "09af|h|[unknown]"},
		{"\t 4005dg main", ""},
		{"\t main (/bin/app)", ""},
	} {
		got := ""
		if m := pp.frameMatch(c.line); m != nil {
			got = strings.Join(m[1:], "|")
		}
		if got != c.want {
			t.Errorf("frameMatch(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// Event lines: the comm first, padded with spaces when perf writes samples
// without call chains; a padded line is an event line only when it shows
// a time or an event.
func TestIsEventLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"dd 29776 1.5: 1 cpu-clock:", true},
		{"dd 29776 ", true},
		{"    dd 29776 1.5: cpu-clock:", true},
		{"    dd 29776 1.5:", true},
		{"    dd 29776 x", false},
		{"\t4005d6 main 12 (/bin/app)", false},
		{"dd", false},
	} {
		if got := isEventLine(c.line); got != c.want {
			t.Errorf("isEventLine(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestSecondsToNS(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int64
		ok   bool
	}{
		{"12.5", 12_500_000_000, true},
		{"1.123456789", 1_123_456_789, true},
		{"1.1234567891", 0, false},
		{"9000000000.0", 9e18, true},
		{"9000000001.0", 0, false},
		{"x.1", 0, false},
	} {
		if got, ok := secondsToNS(c.s); got != c.want || ok != c.ok {
			t.Errorf("secondsToNS(%q) = %d, %v; want %d, %v", c.s, got, ok, c.want, c.ok)
		}
	}
}

func TestStripOffset(t *testing.T) {
	for in, want := range map[string]string{"f+0x1f": "f", "f+0x": "f+0x", "f+0x1g": "f+0x1g", "f": "f", "a+0x1+0x2": "a+0x1"} {
		if got := stripOffset(in); got != want {
			t.Errorf("stripOffset(%q) = %q, want %q", in, got, want)
		}
	}
}

// The script's name tidying (the emulation): Go methods keep their
// brackets, other names are cut at the first '(' that does not open
// "(anonymous namespace)".
func TestScriptNames(t *testing.T) {
	for in, want := range map[string]bool{"net/http.(*Client).Do": true, ".(x).y": true, "f(int)": false, "pkg.(T)": false} {
		if got := isGoMethod(in); got != want {
			t.Errorf("isGoMethod(%q) = %v, want %v", in, got, want)
		}
	}
	for in, want := range map[string]string{"f(int)": "f", "(anonymous namespace)::g(int)": "(anonymous namespace)::g", "(x)": "", "h": "h"} {
		if got := cutParen(in); got != want {
			t.Errorf("cutParen(%q) = %q, want %q", in, got, want)
		}
	}
}

// Samples of other events are dropped and counted; an event line without a
// period names the value type; task-clock periods are nanoseconds; inline
// chains with empty parts lose them; out-of-order samples are sorted by
// time, equal times keeping the file's order.
func TestPerfEvents(t *testing.T) {
	load := func(data string) *analysis.Profile {
		t.Helper()
		p, err := analysis.Parse(context.Background(), "e.txt", []byte(data), analysis.LoadOptions{Format: "perf"})
		if err != nil {
			t.Fatal(err)
		}
		testprof.Check(t, "e.txt", p)
		return p
	}
	p := load("app 1 1.0: 5 task-clock:\n\t1 f (/x)\n\napp 1 2.0: 7 cycles:\n\t1 g (/x)\n\napp 1 3.0: 7 cycles:\n\t1 g (/x)\n\napp 1 4.0: 5 task-clock:\n\t2 b->c-> (/x)\n")
	if len(p.Samples) != 2 || p.ValueTypes[1] != (analysis.ValueType{Type: "task-clock", Unit: "nanoseconds"}) ||
		!slices.Equal(p.Warnings, []string{"kept only task-clock samples, as stackcollapse-perf does; dropped 2 cycles samples"}) ||
		testprof.StackNames(p, &p.Samples[1]) != "app;b;c_[i]" {
		t.Errorf("%d samples, types %v, warnings %q, stack %q", len(p.Samples), p.ValueTypes, p.Warnings, testprof.StackNames(p, &p.Samples[1]))
	}
	p = load("app 1 cycles:\n\t1 f (/x)\n\n")
	if p.ValueTypes[1].Type != "cycles" || p.Total(1) != 1 {
		t.Errorf("no period: value type %v, total %d; want cycles, 1", p.ValueTypes[1], p.Total(1))
	}
	p = load("app 1 [001] 2.0: 1 c:\n\t1 f (/x)\n\napp 1 [000] 1.0: 1 c:\n\t1 g (/x)\n\napp 2 [002] 1.0: 1 c:\n\t1 h (/x)\n\n")
	var got []string
	for i := range p.Samples {
		got = append(got, fmt.Sprintf("%s@%d", testprof.StackNames(p, &p.Samples[i]), p.Samples[i].Time))
	}
	if want := []string{"app;g@0", "app;h@0", "app;f@1000000000"}; !slices.Equal(got, want) || !p.Timed {
		t.Errorf("sorted samples %q, want %q", got, want)
	}
	_, err := analysis.Parse(context.Background(), "none.txt", []byte("# only comments\n"), analysis.LoadOptions{Format: "perf"})
	if err == nil || err.Error() != "none.txt: line 2: expected at least one perf script sample, found none" {
		t.Errorf("a file without samples: error %v", err)
	}
}

// sniff: the first event line is followed by a stack line, a blank line or
// another event line; a head of 4096 bytes may end inside its second line.
func TestPerfSniff(t *testing.T) {
	long := "dd 1 1.0: 1 cpu-clock:\n\t" + strings.Repeat("z", 5000)
	for _, c := range []struct {
		head string
		want bool
	}{
		{"dd 1 1.0: 1 cpu-clock:\n\t4005d6 main (/bin/dd)\n", true},
		{"dd 1 1.0: 1 cpu-clock:\n\n", true},
		{"  dd 1 1.0: 1 cpu-clock:  4005d6 main (/bin/dd)\n  dd 1 1.1: 1 cpu-clock:  4005d6 main (/bin/dd)\n", true},
		{"\n\t4005d6 main\n", true},
		{"dd 1 1.0: 1 cpu-clock:\nnot a stack\n", false},
		{long[:4096], true},
		{"dd 1 1.0: 1 cpu-clock:", true},
		{"\nnot a stack\n", false},
	} {
		if got := sniff([]byte(c.head)); got != c.want {
			t.Errorf("sniff(%.40q) = %v, want %v", c.head, got, c.want)
		}
	}
}

// The script's emulation names the value type after an event line without
// a period; a symbol that is only an offset names no frame.
func TestPerfEventNameAndEmptySymbol(t *testing.T) {
	p, err := parseWith(&analysis.Input{Name: "j", Data: []byte("java 19983 cycles:\nffff81 f ([kernel.kallsyms])\n\n")}, perfOptions{flamegraph: true})
	if err != nil || p.ValueTypes[1].Type != "cycles" {
		t.Errorf("flamegraph mode: %v, %v; want the value type cycles", p, err)
	}
	q, err := analysis.Parse(context.Background(), "o.txt", []byte("app 1 1.0: 1 c:\n\t1 +0x1f (/x)\n\t2 main (/x)\n\n"), analysis.LoadOptions{Format: "perf"})
	if err != nil || testprof.StackNames(q, &q.Samples[0]) != "app;main" {
		t.Errorf("offset-only symbol: %v, %v; want the stack app;main", q, err)
	}
}
