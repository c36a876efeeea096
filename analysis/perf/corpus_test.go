package perf

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

var perfFactRow = regexp.MustCompile("^\\| `([^`]*)` .*perf script: samples=([0-9]+) events=\\{'([^']*)': ([0-9]+)([^}]*)\\}.* t_first=(\\S+) .* span=([0-9.]+)s monotonic_ts=(True|False)")

// TestPerfCorpusFacts loads every perf script file of the corpus by content
// and checks the samples of the first event type, the event name, whether
// the samples are time-ordered and their span against MANIFEST.md.
func TestPerfCorpusFacts(t *testing.T) {
	dir := testprof.Corpus(t)
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		m := perfFactRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		t.Run(m[1], func(t *testing.T) {
			p, err := analysis.Load(context.Background(), filepath.Join(dir, m[1]), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			kept, _ := strconv.Atoi(m[4])
			if p.Format != "perf" || len(p.Samples) != kept || p.ValueTypes[1].Type != m[3] {
				t.Errorf("Load = %s, %d samples of %s; want perf, %d of %s", p.Format, len(p.Samples), p.ValueTypes[1].Type, kept, m[3])
			}
			// The span (last minus first time in file order) covers every
			// event type; it is ours when there is one and times increase.
			// Out-of-order times are sorted, and then cover at least the span.
			span, _ := secondsToNS(m[7])
			timed := m[6] != "None"
			exact := m[5] == "" && m[8] == "True"
			if p.Timed != timed || (timed && exact && int64(p.Duration) != span) || (m[5] == "" && int64(p.Duration) < span) {
				t.Errorf("timed %v over %v, want %v over %dns", p.Timed, p.Duration, timed, span)
			}
		})
	}
	if n < 20 {
		t.Errorf("found %d perf rows in MANIFEST.md, want at least 20", n)
	}
}

// TestPerfExampleJava: FlameGraph's example-perf.svg says "all (1,315
// samples)" and "java (995 samples, 75.67%)".
func TestPerfExampleJava(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join(testprof.Corpus(t), "flamegraph", "example-perf-stacks.txt.gz"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	var all, java int64
	for _, r := range tr.Roots {
		all += tr.Total[0][r]
		if tr.Name(r) == "java" {
			java = tr.Total[0][r]
		}
	}
	if all != 1315 || java != 995 {
		t.Errorf("samples all %d, java %d; want 1315, 995", all, java)
	}
}
