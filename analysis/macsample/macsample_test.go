package macsample

import (
	"bufio"
	"context"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// topOfStack reads the report's own summary, "Sort by top of stack, same
// collapsed (when >= 5)": the self count of each symbol of each image.
func topOfStack(t *testing.T, name string) map[string]int64 {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile(`^\s+(.*?)  \(in ([^)]+)\)\s+(\d+)$`)
	out := map[string]int64{}
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Sort by top of stack"):
			in = true
		case in && strings.TrimSpace(line) == "":
			return out
		case in:
			m := row.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("summary row %q", line)
			}
			n, _ := strconv.ParseInt(m[3], 10, 64)
			out[m[1]+" (in "+m[2]+")"] += n
		}
	}
	return out
}

// selfCounts sums the samples' values by leaf frame, named as the summary
// names them, keeping those of 5 or more.
func selfCounts(p *analysis.Profile) map[string]int64 {
	out := map[string]int64{}
	for i := range p.Samples {
		s := &p.Samples[i]
		st := p.Stacks.At(s.Stack)
		if len(st) == 0 {
			continue
		}
		f := p.Frames[st[len(st)-1]]
		out[strings.TrimSuffix(f.Name, " (in "+f.File+")")+" (in "+f.File+")"] += p.Value(s, 0)
	}
	maps.DeleteFunc(out, func(_ string, n int64) bool { return n < 5 })
	return out
}

// TestSummary: the self counts that the call graph gives equal the report's
// own "Sort by top of stack" summary, for reports written here after the
// format (the tree with "+ ! : |" markers, and with spaces only; see
// testdata/README.md).
func TestSummary(t *testing.T) {
	for _, c := range []struct {
		name     string
		samples  int64
		threads  []string
		period   time.Duration
		start    string
		stackOf  string // the stack of the heaviest sample
		heaviest int64
	}{
		{"testdata/render-two-threads.sample.txt", 4960,
			[]string{"Thread_88120 DispatchQueue_1: com.apple.main-thread (serial)", "Thread_88133"}, time.Millisecond, "2024-03-11T09:15:02+01:00",
			"start_wqthread;_pthread_wqthread;__workq_kernreturn", 2477},
		{"testdata/sleeper-spaces.sample.txt", 352,
			[]string{"Thread_20031 DispatchQueue_1: com.apple.main-thread (serial)", "Thread_20040: worker"}, 10 * time.Millisecond, "2023-07-02T21:40:10-04:00",
			"start;main;nap(int);nanosleep;__semwait_signal", 300},
	} {
		p, err := analysis.Load(context.Background(), c.name, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		testprof.Check(t, c.name, p)
		if got, want := selfCounts(p), topOfStack(t, c.name); !maps.Equal(got, want) {
			t.Errorf("%s: self counts %v, the report's summary says %v", c.name, got, want)
		}
		if p.Format != "macsample" || p.Total(0) != c.samples || p.Timed || time.Duration(p.Period) != c.period || p.Start.Format(time.RFC3339) != c.start {
			t.Errorf("%s: format %s, %d samples, timed %v, period %v, start %v", c.name, p.Format, p.Total(0), p.Timed, time.Duration(p.Period), p.Start)
		}
		if th := testprof.Threads(p); !slices.Equal(th, c.threads) {
			t.Errorf("%s: threads %q, want %q", c.name, th, c.threads)
		}
		heaviest := slices.MaxFunc(p.Samples, func(a, b analysis.Sample) int { return int(p.Value(&a, 0) - p.Value(&b, 0)) })
		if got := testprof.StackNames(p, &heaviest); got != c.stackOf || p.Value(&heaviest, 0) != c.heaviest {
			t.Errorf("%s: heaviest sample %s %d, want %s %d", c.name, got, p.Value(&heaviest, 0), c.stackOf, c.heaviest)
		}
	}
}

// TestErrors: damaged reports give errors naming the line.
func TestErrors(t *testing.T) {
	const head = "Analysis of sampling x (pid 1) every 1 millisecond\nCall graph:\n"
	for _, c := range []struct{ in, want string }{
		{"Analysis of sampling x (pid 1) every 1 millisecond\n", `in: line 1: expected a "Call graph:" line (the report of macOS's sample tool)`},
		{head + "    5 Thread_1\n    + five main  (in x)\n", `in: line 4: expected "COUNT NAME" after the tree's markers, got "+ five main  (in x)"`},
		{head + "    5 Thread_1\n    + 7 main  (in x)\n", "in: line 4: expected a count of at most its caller's 5 (line 3), got 7"},
		{head + "    5 Thread_1\n    + 5 main  (in x)\n    +   4 f  (in x)\n    +   3 g  (in x)\n", "in: line 4: expected its callees' counts to add up to at most its own 5, they add up to 7"},
		{head + "\n", "in: line 3: expected a call graph with samples"},
		{head + "    1125899906842625 Thread_1\n", `in: line 3: expected "COUNT NAME" after the tree's markers, got "1125899906842625 Thread_1"`},
	} {
		_, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) error = %v\nwant %s", c.in, err, c.want)
		}
		testprof.CheckError(t, "in", err)
	}
}

func FuzzMacSample(f *testing.F) {
	testprof.Fuzz(f, "macsample", "render-two-threads.sample.txt", "sleeper-spaces.sample.txt")
}

// TestInterval: the sampling interval of the header ("every 1
// millisecond"), in the units sample takes, as nanoseconds; 0 when the
// header gives none that can be read.
func TestInterval(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1 millisecond", 1e6},
		{"10 milliseconds", 1e7},
		{"500 microseconds", 5e5},
		{"2 seconds", 2e9},
		{"1000000 microseconds", 1e9},
		{"1000001 microseconds", 0},
		{"0 milliseconds", 0},
		{"-1 milliseconds", 0},
		{"ten milliseconds", 0},
		{"3 minutes", 0},
		{"1", 0},
	} {
		if got := interval(c.in); got != c.want {
			t.Errorf("interval(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestDump: the samples of small reports: the graph ends at a blank line
// after its nodes, whatever section follows; blank lines before the first
// thread are skipped; a node whose callees account for all its count is no
// sample; counts up to 2^50 are read.
func TestDump(t *testing.T) {
	const sections = "\nSort by top of stack, same collapsed (when >= 5):\n        f  (in x)        2\n\nBinary Images:\n" +
		"       0x100000000 -        0x100003fff +x (0) <00000000-0000-0000-0000-000000000000> /tmp/x\n"
	for _, c := range []struct{ name, in, want string }{
		{"sections", "Call graph:\n    3 Thread_1\n    + 3 main  (in x) + 1  [0x1]\n    +   2 f  (in x) + 1  [0x2]\n" + sections,
			`format=macsample types=samples/count*=3 period=0 / start=- duration=0s timed=false samples=2 threads=1 processes=0
frame "main" file="x" line=0
frame "f" file="x" line=0
thread "Thread_1" id="" process="" pid=""
sample main;f [2] @0 "Thread_1"
sample main [1] @0 "Thread_1"
`},
		{"blank lines first", "Call graph:\n\n\n    3 Thread_1\n    + 3 main  (in x) + 1  [0x1]\n" + sections,
			`format=macsample types=samples/count*=3 period=0 / start=- duration=0s timed=false samples=1 threads=1 processes=0
frame "main" file="x" line=0
thread "Thread_1" id="" process="" pid=""
sample main [3] @0 "Thread_1"
`},
		{"2^50 samples", "Call graph:\n    1125899906842624 Thread_1\n    + 1125899906842624 main  (in x) + 1  [0x1]\n",
			`format=macsample types=samples/count*=1125899906842624 period=0 / start=- duration=0s timed=false samples=1 threads=1 processes=0
frame "main" file="x" line=0
thread "Thread_1" id="" process="" pid=""
sample main [1125899906842624] @0 "Thread_1"
`},
	} {
		testprof.WantDump(t, "macsample", c.name, c.in, c.want)
	}
}
