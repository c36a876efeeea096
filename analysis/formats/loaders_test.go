package formats

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
)

// loaderCase is one small real file with facts from MANIFEST.md or the file
// itself.
type loaderCase struct {
	file     string
	format   string
	types    string  // "type/unit ..." of the value types
	def      string  // default value type
	samples  int     // sample records
	totals   []int64 // per value type
	timed    bool
	duration time.Duration
	lang     analysis.Lang
}

var loaderCases = []loaderCase{
	{file: "../pprof/testdata/devirt.pprof", format: "pprof", types: "samples/count cpu/nanoseconds", def: "cpu",
		samples: 28, totals: []int64{739, 7390000000}, duration: 7519956531, lang: analysis.LangGo},
	{file: "../pprof/testdata/cppbench.small.contention", format: "pprof", types: "contentions/count delay/nanoseconds", def: "delay",
		samples: 1, totals: []int64{1000, 3124}, duration: 16502830000000},
	// 11 samples: the script drops the unterminated last one, we keep it.
	{file: "../perf/testdata/perf-dd-stacks-01.txt", format: "perf", types: "samples/count cpu-clock/nanoseconds", def: "cpu-clock",
		samples: 11, totals: []int64{11, 11 * 10101010}, timed: true, duration: 101008 * time.Microsecond},
	{file: "../perf/testdata/perf-java-stacks-02.txt", format: "perf", types: "samples/count cycles/count", def: "cycles",
		samples: 2, totals: []int64{2, 2}},
	{file: "../folded/testdata/perf-dd-stacks-01-collapsed-pid.txt", format: "folded", types: "samples/count", def: "samples",
		samples: 9, totals: []int64{101010100}},
	{file: "../hprof/testdata/basex-java.hprof.txt", format: "hprof", types: "samples/count", def: "samples",
		samples: 141, totals: []int64{2585}, lang: analysis.LangJVM, duration: 15 * time.Second}, // created 16:00:15, table 16:00:30,
}

func TestLoaders(t *testing.T) {
	for _, c := range loaderCases {
		t.Run(c.file, func(t *testing.T) {
			p, err := analysis.Load(context.Background(), c.file, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, vt := range p.ValueTypes {
				types = append(types, vt.Type+"/"+vt.Unit)
			}
			got := []any{p.Format, strings.Join(types, " "), p.ValueTypes[p.DefaultValue].Type, len(p.Samples), p.Timed, p.Duration}
			want := []any{c.format, c.types, c.def, c.samples, c.timed, c.duration}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("Load = format, types, default, samples, timed, duration %v, want %v", got, want)
					break
				}
			}
			for v, w := range c.totals {
				if p.Total(v) != w {
					t.Errorf("total %s = %d, want %d", types[v], p.Total(v), w)
				}
			}
			if c.lang != analysis.LangAuto && p.Lang != c.lang {
				t.Errorf("lang = %d, want %d", p.Lang, c.lang)
			}
			if p.Source != c.file {
				t.Errorf("source = %q", p.Source)
			}
		})
	}
}

// TestLoadOptions: format= overrides sniffing, value= picks the default
// value, and both name what is available when wrong.
func TestLoadOptions(t *testing.T) {
	path := "../pprof/testdata/devirt.pprof"
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{Value: "samples"})
	if err != nil || p.ValueTypes[p.DefaultValue].Type != "samples" {
		t.Fatalf("Load value=samples = %v, %v; want default samples", p, err)
	}
	for _, c := range []struct {
		opts analysis.LoadOptions
		want string
	}{
		{analysis.LoadOptions{Value: "alloc"}, `no value type "alloc" (have: samples, cpu)`},
		{analysis.LoadOptions{Format: "nope"}, `unknown format "nope"`},
		{analysis.LoadOptions{Format: "folded"}, "line 1: expected"},
	} {
		_, err := analysis.Load(context.Background(), path, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "load "+path+": ") {
			t.Errorf("Load(%+v) error = %v, want \"load %s: ...%s...\"", c.opts, err, path, c.want)
		}
	}
	_, err = analysis.Load(context.Background(), filepath.Join(t.TempDir(), "missing.pprof"), analysis.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "missing.pprof") {
		t.Errorf("Load(missing) error = %v, want one naming the file", err)
	}
}

// TestSniff: content, not the name, picks the format; look-alikes are
// refused with the list of formats.
func TestSniff(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"main;work 3\n", "folded"},
		{"main 3\nwork 4\n", "folded"},
		{"version: 1\ncreator: xdebug 3.0.2 (PHP 7.4.14)\n", ""},
		{"JAVA PROFILE 1.0.1, created Tue Apr  6 17:20:40 2010\n", "hprof"},
		{"prog 12 1.5: 3 cycles:\n\t1 f (/bin/prog)\n", "perf"},
		{"heap profile: 1: 2 [3: 4] @ heap/1048576\n", "pprof"},
		{"\x08\x01\x12\x02", "pprof"},
	} {
		got := sniffed(c.data)
		if got != c.want {
			t.Errorf("sniff(%q) = %q, want %q", c.data, got, c.want)
		}
	}
}

// sniffed returns the format that Parse picks for data: the one it loads
// as, or the one whose error it gives when it fails; "" when it recognises
// none.
func sniffed(data string) string {
	p, err := analysis.Parse(context.Background(), "sniff", []byte(data), analysis.LoadOptions{})
	if err == nil {
		return p.Format
	}
	for _, f := range analysis.Formats() {
		_, ferr := analysis.Parse(context.Background(), "sniff", []byte(data), analysis.LoadOptions{Format: f})
		if ferr != nil && ferr.Error() == err.Error() {
			return f
		}
	}
	return ""
}
