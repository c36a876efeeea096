package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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

// TestPerfFlameGraphResults: WriteFolded of each FlameGraph test input,
// loaded with the options of each of the 78 expected outputs, equals that
// output byte for byte. The loader's defaults differ from the script only
// in keeping an unterminated last sample, so the test drops it as the script
// does; the default options share every code path checked here.
func TestPerfFlameGraphResults(t *testing.T) {
	dir := filepath.Join(loadCorpus(t), "flamegraph", "test")
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
			o.dropUnterminated = true
			o.before2023 = perfBefore2023[base]
			data, err := os.ReadFile(filepath.Join(dir, input))
			if err != nil {
				t.Fatal(err)
			}
			p, err := parsePerfWith(input, data, o)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteFolded(&got, p, 1); err != nil {
				t.Fatal(err)
			}
			want, _ := os.ReadFile(res)
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("folded output differs from %s:\n%s", base, firstDiff(got.String(), string(want)))
			}
		})
	}
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
			return "line " + itoa(i+1) + ":\n got  " + clip(a) + "\n want " + clip(b)
		}
	}
	return "(same lines)"
}

func itoa(i int) string { return strconv.Itoa(i) }
