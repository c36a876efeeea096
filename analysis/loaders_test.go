package analysis

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	lang     Lang
}

var loaderCases = []loaderCase{
	{file: "devirt.pprof", format: "pprof", types: "samples/count cpu/nanoseconds", def: "cpu",
		samples: 28, totals: []int64{739, 7390000000}, duration: 7519956531, lang: LangGo},
	{file: "cppbench.small.contention", format: "pprof", types: "contentions/count delay/nanoseconds", def: "delay",
		samples: 1, totals: []int64{1000, 3124}, duration: 16502830000000},
	// 11 samples: the script drops the unterminated last one, we keep it.
	{file: "perf-dd-stacks-01.txt", format: "perf", types: "samples/count cpu-clock/nanoseconds", def: "cpu-clock",
		samples: 11, totals: []int64{11, 11 * 10101010}, timed: true, duration: 101008 * time.Microsecond},
	{file: "perf-java-stacks-02.txt", format: "perf", types: "samples/count cycles/count", def: "cycles",
		samples: 2, totals: []int64{2, 2}},
	{file: "perf-dd-stacks-01-collapsed-pid.txt", format: "folded", types: "samples/count", def: "samples",
		samples: 9, totals: []int64{101010100}},
	{file: "basex-java.hprof.txt", format: "hprof", types: "samples/count", def: "samples",
		samples: 141, totals: []int64{2585}, lang: LangJVM, duration: 15 * time.Second}, // created 16:00:15, table 16:00:30,
}

func TestLoaders(t *testing.T) {
	for _, c := range loaderCases {
		t.Run(c.file, func(t *testing.T) {
			p, err := Load(filepath.Join("testdata", c.file), LoadOptions{})
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
			if c.lang != LangAuto && p.Lang != c.lang {
				t.Errorf("lang = %d, want %d", p.Lang, c.lang)
			}
			if p.Source != filepath.Join("testdata", c.file) {
				t.Errorf("source = %q", p.Source)
			}
		})
	}
}

// TestLoadOptions: format= overrides sniffing, value= picks the default
// value, and both name what is available when wrong.
func TestLoadOptions(t *testing.T) {
	path := filepath.Join("testdata", "devirt.pprof")
	p, err := Load(path, LoadOptions{Value: "samples"})
	if err != nil || p.ValueTypes[p.DefaultValue].Type != "samples" {
		t.Fatalf("Load value=samples = %v, %v; want default samples", p, err)
	}
	for _, c := range []struct {
		opts LoadOptions
		want string
	}{
		{LoadOptions{Value: "alloc"}, `no value type "alloc" (have: samples, cpu)`},
		{LoadOptions{Format: "nope"}, `unknown format "nope"`},
		{LoadOptions{Format: "folded"}, "line 1: expected"},
	} {
		_, err := Load(path, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "load "+path+": ") {
			t.Errorf("Load(%+v) error = %v, want \"load %s: ...%s...\"", c.opts, err, path, c.want)
		}
	}
	_, err = Load(filepath.Join("testdata", "missing.pprof"), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "missing.pprof") {
		t.Errorf("Load(missing) error = %v, want one naming the file", err)
	}
}

// TestPerfSamples checks what the folded comparison cannot see: times,
// threads and order.
func TestPerfSamples(t *testing.T) {
	p, err := Load(filepath.Join("testdata", "perf-dd-stacks-01.txt"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Samples[1]
	// "dd 29776 666709.771979:" then "dd 29776 666709.782078:".
	if p.Thread(&s) != "dd-?/29776" || s.Time != 10099000 {
		t.Errorf("sample 1 = thread %q time %d, want dd-?/29776 10099000", p.Thread(&s), s.Time)
	}
	if p.Period != 10101010 || p.PeriodType != (ValueType{"cpu-clock", "nanoseconds"}) {
		t.Errorf("period = %d %v, want 10101010 cpu-clock/nanoseconds", p.Period, p.PeriodType)
	}
	root := p.Frames[p.Stacks.At(s.Stack)[0]]
	if root.Name != "dd" {
		t.Errorf("root frame = %q, want the process name dd", root.Name)
	}
}

// TestHprofCutoff: the xfvrp file lists fewer samples than its header total
// (hprof's cutoff); the loader keeps the listed rows and says so.
func TestHprofCutoff(t *testing.T) {
	p, err := Load(filepath.Join(loadCorpus(t), "java-hprof", "xfvrp", "java.hprof.txt"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Total(0) != 41825 || len(p.Samples) != 174 {
		t.Errorf("total %d in %d rows, want 41825 in 174", p.Total(0), len(p.Samples))
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "41825 of 42483") {
		t.Errorf("warnings = %q, want the cutoff", p.Warnings)
	}
	top := p.Stacks.At(p.Samples[0].Stack)
	if leaf := p.Frames[top[len(top)-1]].Name; leaf != "xf.xfvrp.opt.improve.XFVRPPathMove.search" || p.Value(&p.Samples[0], 0) != 8432 {
		t.Errorf("rank 1 = %s %d, want XFVRPPathMove.search 8432", leaf, p.Value(&p.Samples[0], 0))
	}
}

// TestFoldedLongLine: a folded file whose first line is longer than the
// sniffer's 4 KiB head is still recognised.
func TestFoldedLongLine(t *testing.T) {
	stack := strings.Repeat("org.example.Frame.call;", 300) + "leaf 7\n"
	p, err := Parse("deep.txt", []byte(stack+"a;b 1\n"), LoadOptions{})
	if err != nil || p.Format != "folded" || len(p.Stacks.At(0)) != 301 || p.Total(0) != 8 {
		t.Fatalf("Parse(deep) = %v, %v; want folded, 301 frames, total 8", p, err)
	}
}

// TestPerfLongHeader: perf script --header output whose header fills more
// than the sniffer's head is still recognised.
func TestPerfLongHeader(t *testing.T) {
	data := "# ========\n# captured on    : Sat Sep  4 10:27:47 2021\n" +
		strings.Repeat("# cpu pmu capabilities: branches=32, max_precise=3\n", 100) +
		"# ========\n#\nprog 12/12 [000] 1.000001: 100 cycles:\n\t400570 f (/bin/prog)\n\t4005b1 main (/bin/prog)\n\n"
	p, err := Parse("header.perf", []byte(data), LoadOptions{})
	if err != nil || p.Format != "perf" || p.Total(1) != 100 {
		t.Fatalf("Parse(header.perf) = %v, %v; want perf with 100 cycles", p, err)
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
		var got string
		for _, f := range formats {
			if f.Sniff(head4k([]byte(c.data))) {
				got = f.Name
				break
			}
		}
		if got != c.want {
			t.Errorf("sniff(%q) = %q, want %q", c.data, got, c.want)
		}
	}
}

func TestDTraceFrames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"genunix`kmem_cpu_reload+0x20", []string{"genunix`kmem_cpu_reload"}},
		{"libstdc++.so`std::vector<int>::push_back(int const&)+0x1", []string{"libstdc++.so`std::vector<int>::push_back"}},
		{"a.out`ns::Foo<int>::bar(int)", []string{"a.out`ns::Foo<int>::bar"}},
		{"Lcom/x/Y;.m->inl", []string{"com/x/Y:.m", "inl_[i]"}},
		{"+0x10", []string{"-"}},
	} {
		if got := dtraceFrames(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("dtraceFrames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSyntaxErrorAs: positions are available to callers through errors.As.
func TestSyntaxErrorAs(t *testing.T) {
	_, err := Parse("x.folded", []byte("a;b 1\na;b\n"), LoadOptions{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != "x.folded" || se.Line != 2 {
		t.Errorf("errors.As(%v) = %+v, want x.folded line 2", err, se)
	}
}
