package analysis

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// loadCorpusDir is the shared corpus of real profiles; tests that sweep it skip
// when it is absent.
const loadCorpusDir = "../../shared/corpus"

func loadCorpus(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(loadCorpusDir, "MANIFEST.md")); err != nil {
		t.Skip("corpus not present at " + loadCorpusDir)
	}
	return loadCorpusDir
}

// pprofFact is one MANIFEST.md row for a pprof-parsable file, whose facts
// were computed with the pprof library and go tool pprof.
type pprofFact struct {
	path    string
	types   []string // "type/unit"
	records int
	sums    []int64
	def     string // go tool pprof's default sample type, "" when not stated
}

var pprofDefaultType = regexp.MustCompile(`\(default type ([A-Za-z_]+)\)`)

var pprofFactRow = regexp.MustCompile("^\\| `([^`]*)` .*sample types \\[([^]]*)\\]; ([0-9]+) Sample records; value sums \\[([^]]*)\\]")

func pprofFacts(t *testing.T, dir string) []pprofFact {
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []pprofFact
	for _, line := range strings.Split(string(data), "\n") {
		m := pprofFactRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := pprofFact{path: m[1], types: strings.Split(m[2], ",")}
		f.records, _ = strconv.Atoi(m[3])
		for _, s := range strings.Fields(m[4]) {
			v, _ := strconv.ParseInt(s, 10, 64)
			f.sums = append(f.sums, v)
		}
		if d := pprofDefaultType.FindStringSubmatch(line); d != nil {
			f.def = d[1]
		}
		out = append(out, f)
	}
	return out
}

// TestPprofCorpusFacts loads every pprof file of the corpus by content and
// checks its value types, sample count and value sums against MANIFEST.md.
func TestPprofCorpusFacts(t *testing.T) {
	dir := loadCorpus(t)
	facts := pprofFacts(t, dir)
	if len(facts) < 40 {
		t.Fatalf("found %d pprof rows in MANIFEST.md, want at least 40", len(facts))
	}
	for _, f := range facts {
		t.Run(f.path, func(t *testing.T) {
			p, err := Load(filepath.Join(dir, f.path), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != "pprof" {
				t.Errorf("format = %q, want pprof", p.Format)
			}
			var types []string
			for _, vt := range p.ValueTypes {
				types = append(types, vt.Type+"/"+vt.Unit)
			}
			if strings.Join(types, ",") != strings.Join(f.types, ",") {
				t.Errorf("value types = %v, want %v", types, f.types)
			}
			if len(p.Samples) != f.records {
				t.Errorf("samples = %d, want %d", len(p.Samples), f.records)
			}
			for v, want := range f.sums {
				if v < len(p.ValueTypes) && p.Total(v) != want {
					t.Errorf("total %s = %d, want %d", types[v], p.Total(v), want)
				}
			}
			if f.def != "" && p.ValueTypes[p.DefaultValue].Type != f.def {
				t.Errorf("default value = %s, want %s", p.ValueTypes[p.DefaultValue].Type, f.def)
			}
			tr := NewTree(p)
			var sum int64
			for _, r := range tr.Roots {
				sum += tr.Total[p.DefaultValue][r]
			}
			if sum+tr.Unrooted[p.DefaultValue] != p.Total(p.DefaultValue) {
				t.Errorf("tree roots sum %d + unrooted %d != total %d", sum, tr.Unrooted[p.DefaultValue], p.Total(p.DefaultValue))
			}
		})
	}
}

var perfFactRow = regexp.MustCompile("^\\| `([^`]*)` .*perf script: samples=([0-9]+) events=\\{'([^']*)': ([0-9]+)([^}]*)\\}.* t_first=(\\S+) .* span=([0-9.]+)s monotonic_ts=(True|False)")

// TestPerfCorpusFacts loads every perf script file of the corpus by content
// and checks the samples of the first event type, the event name, whether
// the samples are time-ordered and their span against MANIFEST.md.
func TestPerfCorpusFacts(t *testing.T) {
	dir := loadCorpus(t)
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
			p, err := Load(filepath.Join(dir, m[1]), LoadOptions{})
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
	p, err := Load(filepath.Join(loadCorpus(t), "flamegraph", "example-perf-stacks.txt.gz"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTree(p)
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

// TestHprofCorpus: each hprof file's CPU SAMPLES table sums to the header
// total MANIFEST.md records (xfvrp lists fewer: hprof's cutoff).
func TestHprofCorpus(t *testing.T) {
	dir := filepath.Join(loadCorpus(t), "java-hprof")
	for file, want := range map[string]int64{
		"basex/java.hprof.2009-01-05.txt": 2585,
		"basex/java.hprof.2009-11-27.txt": 1575,
		"xfvrp/java.hprof.txt":            41825,
	} {
		p, err := Load(filepath.Join(dir, file), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr := NewTree(p)
		var sum int64
		for _, r := range tr.Roots {
			sum += tr.Total[0][r]
		}
		if p.Format != "hprof" || p.Total(0) != want || sum+tr.Unrooted[0] != want {
			t.Errorf("%s: format %s, total %d, tree %d+%d; want hprof, %d", file, p.Format, p.Total(0), sum, tr.Unrooted[0], want)
		}
	}
}

// TestFoldedCorpus loads the folded files of the corpus by content, in
// UTF-8, UTF-16 (both byte orders) and CRLF, and checks MANIFEST.md's line
// counts, distinct stacks and total weights.
func TestFoldedCorpus(t *testing.T) {
	dir := loadCorpus(t)
	ss := "speedscope/sample/profiles/stackcollapse/"
	for _, c := range []struct {
		file          string
		lines, stacks int
		total         int64
	}{
		{ss + "alternating.txt", 182, 2, 182},
		{ss + "recursion.txt", 10, 7, 10},
		{ss + "simple.txt", 5, 3, 14},
		{ss + "simple-crlf.txt", 5, 3, 14},
		{ss + "simple-utf16-be.txt", 5, 3, 14},
		{ss + "simple-utf16-le.txt", 5, 3, 14},
		{ss + "tall.txt", 1, 1, 1},
		{"firefox-profiler/src/test/fixtures/upgrades/flamegraph.txt", 45, 45, 152364},
	} {
		p, err := Load(filepath.Join(dir, c.file), LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if p.Format != "folded" || len(p.Samples) != c.lines || p.Stacks.Len() != c.stacks || p.Total(0) != c.total {
			t.Errorf("%s: %s, %d lines, %d stacks, total %d; want folded, %d, %d, %d",
				c.file, p.Format, len(p.Samples), p.Stacks.Len(), p.Total(0), c.lines, c.stacks, c.total)
		}
	}
	_, err := Load(filepath.Join(dir, ss+"simple-with-invalids.txt"), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `simple-with-invalids.txt: line 8: expected "frame;frame;... COUNT" (folded stacks), got "invalid line"`) {
		t.Errorf("simple-with-invalids: error %v, want line 8", err)
	}
}

// TestDTraceExample: FlameGraph's example-dtrace.svg says "all (57,441
// samples)" for example-dtrace-stacks.txt (3,411 stack blocks).
func TestDTraceExample(t *testing.T) {
	p, err := Load(filepath.Join(loadCorpus(t), "flamegraph", "example-dtrace-stacks.txt"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "dtrace" || p.Total(0) != 57441 || len(p.Samples) != 3411 {
		t.Errorf("Load = %s, total %d in %d blocks; want dtrace, 57441 in 3411", p.Format, p.Total(0), len(p.Samples))
	}
	leaf := p.Stacks.At(p.Samples[0].Stack)
	if got := p.Frames[leaf[len(leaf)-1]].Name; got != "genunix`kmem_cpu_reload" {
		t.Errorf("first leaf = %q, want genunix`kmem_cpu_reload", got)
	}
}
