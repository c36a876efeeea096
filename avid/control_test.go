package avid

import (
	"math"
	"strings"
	"testing"
)

func TestParseControl(t *testing.T) {
	c, err := ParseControl("ctl", `# the paper's example, and two more
c2=50 from 10000ns to 200000ns
m3=1ms c1=4 from 1ms
  default   c3=10us m1=3
c3=5us to 5us
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "C-3 every 5µs from start to 5µs; C-2 every 50 events from 10µs to 200µs; " +
		"C-1 every 4 events, M-3 (M-2 every 1ms) from 1ms to end; elsewhere C-3 every 10µs, M-1 every 3 memory events"
	if got := c.String(); got != want {
		t.Errorf("control:\n%s\nwant\n%s", got, want)
	}
	if r := c.Ranges[2]; r.From != 1e6 || r.To != math.MaxInt64 || !r.Snap || r.Memory != "M-2" || r.MemoryEvery != 1e6 {
		t.Errorf("the third range = %+v, want M-3 with M-2 every 1ms from 1ms to the end", r)
	}
	for i, want := range []int{0, 3, 0, 1, 3, 2, 2} { // the range of times 0, 5µs, 4.999µs, 10µs, 200µs, 1ms, and the end
		if got := c.at([]int64{0, 5000, 4999, 10000, 200000, 1e6, math.MaxInt64 - 1}[i]); got != want {
			t.Errorf("time %d is in range %d, want %d", i, got, want)
		}
	}
	if c, _ := ParseControl("ctl", "c1=2"); c.Default != Trace || Whole(Trace).String() != "trace" {
		t.Errorf("default %v, want trace", c.Default)
	}
}

func TestParseControlErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"c2=5 from 2ms to 1ms", "ctl: line 1: the range ends (1ms) before it starts (2ms)"},
		{"c2=5 from 1ms to 3ms\n\nc1=2 from 2ms", "ctl: line 3: the range overlaps the one from 1ms to 3ms: ranges may not overlap"},
		{"c2=5 from 3ms\nc1=2 to 4ms", "ctl: line 2: the range overlaps the one from 3ms to end: ranges may not overlap"},
		{"c2=5 from", "ctl: line 1: from needs a time after it"},
		{"c2=5 to soon", "ctl: line 1: to soon: expected a duration since the start with its unit (10ms), start or end"},
		{"c2=5 from -1ms", "ctl: line 1: from -1ms: expected a duration"},
		{"default trace\ndefault nothing", "ctl: line 2: the default is given twice: keep one line default"},
		{"default c9=1", `ctl: line 1: "c9=1" is not a sampling`},
		{"from 1ms", "ctl: line 1: no sampling: write c1=N"},
		{"c1=2 c2=3", "ctl: line 1: c2=3: a range has one control-flow sampling, and C-1 is given already"},
		{"m1=2 m3=4", "ctl: line 1: m3=4: a range has one memory sampling, and M-1 is given already"},
		{"c1=0", "ctl: line 1: c1=0: write a whole number of events, 1 or more"},
		{"c1=02", "ctl: line 1: c1=02: write a whole number of events, 1 or more"},
		{"c3=10", "ctl: line 1: c3=10: write a duration above 0 with its unit, such as 10ms"},
		{"m2=0s", "ctl: line 1: m2=0s: write a duration above 0"},
		{"trace c1=2", "ctl: line 1: trace stands alone: it is the whole sampling"},
	} {
		if _, err := ParseControl("ctl", c.text); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseControl(%q) error = %v, want %q", c.text, err, c.want)
		}
	}
}

func TestSamplingString(t *testing.T) {
	for _, c := range []struct {
		s    Sampling
		want string
	}{
		{Sampling{}, "nothing"},
		{Trace, "trace"},
		{Sampling{Kind: "trace"}, "control flow traced"},
		{Sampling{Memory: "trace"}, "memory traced"},
		{Sampling{Kind: "C-2", Every: 7, Memory: "M-1", MemoryEvery: 9, Snap: true}, "C-2 every 7 events, M-3 (M-1 every 9 memory events)"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v = %q, want %q", c.s, got, c.want)
		}
	}
}
