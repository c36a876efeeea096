package perf

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/analysis/internal/text"
)

// perfResultOptions maps the suffix of FlameGraph's expected outputs
// (test/results/NAME-collapsed-SUFFIX.txt) to stackcollapse-perf options.
var perfResultOptions = map[string]perfOptions{
	"pid":    {pid: true},
	"tid":    {tid: true},
	"kernel": {kernel: true},
	"jit":    {jit: true},
	"all":    {kernel: true, jit: true},
	"addrs":  {addrs: true},
}

// perfBefore2023 lists the expected outputs recorded with the script as of
// a14f791 (2021), before Java "L" stripping applied to "java-PID" process
// names; MANIFEST.md notes that HEAD no longer reproduces them.
var perfBefore2023 = map[string]bool{
	"perf-java-faults-01-collapsed-pid": true, "perf-java-faults-01-collapsed-tid": true,
	"perf-java-stacks-01-collapsed-pid": true, "perf-java-stacks-01-collapsed-tid": true,
	"perf-java-stacks-02-collapsed-pid": true, "perf-java-stacks-02-collapsed-tid": true,
	"perf-vertx-stacks-01-collapsed-pid": true, "perf-vertx-stacks-01-collapsed-tid": true,
}

// TestPerfFlameGraphResults: folded.Write of each FlameGraph test input,
// loaded with the options of each of the 78 expected outputs and the
// script's name tidying, equals that output with its names cleaned as every
// loader cleans them (analysis.CleanName: Rust hashes and escapes in
// perf-rust-Yamakaky-dcpu). The loader keeps an unterminated last sample,
// so the test drops it as the script does.
func TestPerfFlameGraphResults(t *testing.T) {
	dir := filepath.Join(testprof.Corpus(t), "flamegraph", "test")
	results, _ := filepath.Glob(filepath.Join(dir, "results", "perf-*-collapsed-*.txt"))
	if len(results) != 78 {
		t.Fatalf("found %d expected outputs, want 78", len(results))
	}
	for _, res := range results {
		base := strings.TrimSuffix(filepath.Base(res), ".txt")
		i := strings.LastIndex(base, "-collapsed-")
		input, suffix := base[:i]+".txt", base[i+len("-collapsed-"):]
		t.Run(base, func(t *testing.T) {
			o, ok := perfResultOptions[suffix]
			if !ok {
				t.Fatalf("unknown option suffix %q", suffix)
			}
			o.dropUnterminated, o.flamegraph = true, true
			o.before2023 = perfBefore2023[base]
			data, err := os.ReadFile(filepath.Join(dir, input))
			if err != nil {
				t.Fatal(err)
			}
			p, err := parseWith(&analysis.Input{Name: input, Data: data}, o)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := folded.Write(&got, p, 1); err != nil {
				t.Fatal(err)
			}
			want := cleanFolded(t, res)
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("folded output differs from %s:\n%s", base, firstDiff(got.String(), string(want)))
			}
		})
	}
}

// cleanFolded reads a folded file and returns it with every frame name
// cleaned by analysis.CleanName, its lines merged and sorted as folded.Write
// writes them.
func cleanFolded(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]int64{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		i := strings.LastIndexByte(line, ' ')
		stack, n := line[:max(i, 0)], line[i+1:]
		frames := strings.Split(stack, ";")
		for i, f := range frames {
			frames[i] = analysis.CleanName(f)
		}
		v, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		sums[strings.Join(frames, ";")] += v
	}
	var b bytes.Buffer
	for _, k := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(&b, "%s %d\n", k, sums[k])
	}
	return b.Bytes()
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + text.Clip(a) + "\n want " + text.Clip(b)
		}
	}
	return "(same lines)"
}

// TestPerfSamples checks what the folded comparison cannot see: times,
// threads and order.
func TestPerfSamples(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join("testdata", "perf-dd-stacks-01.txt"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Samples[1]
	// "dd 29776 666709.771979:" then "dd 29776 666709.782078:".
	if p.Thread(&s) != "dd-?/29776" || s.Time != 10099000 {
		t.Errorf("sample 1 = thread %q time %d, want dd-?/29776 10099000", p.Thread(&s), s.Time)
	}
	if p.Period != 10101010 || p.PeriodType != (analysis.ValueType{Type: "cpu-clock", Unit: "nanoseconds"}) {
		t.Errorf("period = %d %v, want 10101010 cpu-clock/nanoseconds", p.Period, p.PeriodType)
	}
	root := p.Frames[p.Stacks.At(s.Stack)[0]]
	if root.Name != "dd" {
		t.Errorf("root frame = %q, want the process name dd", root.Name)
	}
}

// TestPerfLongHeader: perf script --header output whose header fills more
// than the sniffer's head is still recognised.
func TestPerfLongHeader(t *testing.T) {
	data := "# ========\n# captured on    : Sat Sep  4 10:27:47 2021\n" +
		strings.Repeat("# cpu pmu capabilities: branches=32, max_precise=3\n", 100) +
		"# ========\n#\nprog 12/12 [000] 1.000001: 100 cycles:\n\t400570 f (/bin/prog)\n\t4005b1 main (/bin/prog)\n\n"
	p, err := analysis.Parse(context.Background(), "header.perf", []byte(data), analysis.LoadOptions{})
	if err != nil || p.Format != "perf" || p.Total(1) != 100 {
		t.Fatalf("Parse(header.perf) = %v, %v; want perf with 100 cycles", p, err)
	}
}

// Symbols that begin with '(' are functions ("(anonymous namespace)::…",
// "(lambda)"): their samples stay theirs, not their callers'.
func TestPerfParenSymbols(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/perf-paren-symbols.txt", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	self := map[string]int64{}
	for i := range p.Samples {
		st := p.Stacks.At(p.Samples[i].Stack)
		self[p.Frames[st[len(st)-1]].Name] += p.Value(&p.Samples[i], 1)
	}
	want := map[string]int64{"(anonymous namespace)::cfg::reduce": 250000, "(lambda)": 250000, "cfg::run": 250000}
	if !maps.Equal(self, want) {
		t.Errorf("self cycles by leaf = %v, want %v", self, want)
	}
}
