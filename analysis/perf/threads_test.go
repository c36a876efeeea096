package perf

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestPerfThreads: FlameGraph's collapsed-tid output roots each stack at
// its thread, "comm-pid/tid"; summed per root it is an independent count
// of each thread's share of perf-iperf-stacks-pidtid-01 (11 threads in 5
// processes). ThreadShares gives the same, and the filters thread=NAME and
// process=PID (an id: no process name holds it) keep exactly those samples.
func TestPerfThreads(t *testing.T) {
	input := testprof.CorpusFile(t, "flamegraph/test/perf-iperf-stacks-pidtid-01.txt")
	data, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parseWith(&analysis.Input{Name: input, Data: data}, perfOptions{dropUnterminated: true, flamegraph: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := os.ReadFile(testprof.CorpusFile(t, "flamegraph/test/results/perf-iperf-stacks-pidtid-01-collapsed-tid.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, perPID := map[string]int64{}, map[string]int64{}
	for line := range strings.Lines(string(res)) {
		root, _, _ := strings.Cut(line, ";")
		n, _ := strconv.ParseInt(strings.TrimSpace(line[strings.LastIndexByte(line, ' '):]), 10, 64)
		want[root] += n
		pid := root[strings.LastIndexByte(root, '-')+1 : strings.IndexByte(root, '/')]
		perPID[pid] += n
	}
	shares := analysis.ThreadShares(p, 1)
	if len(shares) != len(want) || len(want) != 11 {
		t.Fatalf("%d threads, FlameGraph %d; want 11", len(shares), len(want))
	}
	for _, s := range shares {
		th := s.Thread
		if s.Value != want[th.Name] || th.Name != th.Process+"-"+th.PID+"/"+th.ID {
			t.Errorf("thread %+v: %d, FlameGraph %d", th, s.Value, want[th.Name])
		}
		name := "^" + regexp.QuoteMeta(th.Name) + "$"
		if kept := total(analysis.NewTree(p.Filter(analysis.Filter{Thread: regexp.MustCompile(name)})), 1); kept != s.Value {
			t.Errorf("thread=%s keeps %d, want %d", name, kept, s.Value)
		}
		if kept := total(analysis.NewTree(p.Filter(analysis.Filter{Process: regexp.MustCompile(th.PID)})), 1); kept != perPID[th.PID] {
			t.Errorf("process=%s keeps %d, FlameGraph %d", th.PID, kept, perPID[th.PID])
		}
	}
}

// total sums the roots of t for value type v.
func total(t *analysis.Tree, v int) int64 {
	var n int64
	for _, r := range t.Roots {
		n += t.Total[v][r]
	}
	return n
}
