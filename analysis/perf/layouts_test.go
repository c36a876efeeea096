package perf

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// The files of testdata/layouts are one recording (perf record -e
// cpu-clock -c 100000 -g of a small C program, 9 samples; no-callchain*
// without -g, 8 samples) written by perf script with several -F field
// lists. Each must load into the samples the default layout gives: the
// same stacks of symbols (where the layout has symbols), periods (where it
// has them), threads and times.
func TestPerfLayouts(t *testing.T) {
	def := loadPerf(t, "testdata/layouts/default.txt")
	periods := directPeriods(t, "testdata/layouts/default.txt")
	if len(def.Samples) != 9 || !slices.Equal(samplePeriods(def), periods) {
		t.Fatalf("default layout: %d samples, periods %v; want 9, %v (read directly)", len(def.Samples), samplePeriods(def), periods)
	}
	for _, c := range []struct {
		file                           string
		names, periods, threads, times bool
	}{
		{"no-dso.txt", true, true, true, true},
		{"ip-sym.txt", true, false, false, false},
		{"no-time.txt", true, true, true, false},
		{"srcline.txt", true, true, true, true},
		{"ip-only.txt", false, false, true, false},
	} {
		t.Run(c.file, func(t *testing.T) {
			p := loadPerf(t, "testdata/layouts/"+c.file)
			if len(p.Samples) != len(def.Samples) {
				t.Fatalf("%d samples, want %d", len(p.Samples), len(def.Samples))
			}
			for i := range p.Samples {
				s, d := &p.Samples[i], &def.Samples[i]
				want := symbols(def, d)
				if !c.threads { // no comm: no root frame
					_, want, _ = strings.Cut(want, ";")
				}
				if c.names && symbols(p, s) != want {
					t.Errorf("sample %d: %q, want %q", i, symbols(p, s), want)
				}
				if !c.names && len(p.Stacks.At(s.Stack)) != strings.Count(want, ";")+1 {
					t.Errorf("sample %d: %d frames, want %d", i, len(p.Stacks.At(s.Stack)), len(def.Stacks.At(d.Stack)))
				}
				if c.periods && p.Value(s, 1) != def.Value(d, 1) || !c.periods && p.Value(s, 1) != 1 {
					t.Errorf("sample %d: period %d, want %d", i, p.Value(s, 1), def.Value(d, 1))
				}
				if c.threads && p.Thread(s) != def.Thread(d) || !c.threads && p.Thread(s) != "" {
					t.Errorf("sample %d: thread %q, want %q", i, p.Thread(s), def.Thread(d))
				}
				if c.times && s.Time != d.Time {
					t.Errorf("sample %d: at %d, want %d", i, s.Time, d.Time)
				}
			}
		})
	}
	// Without call chains the frame is on the event line, which perf pads.
	nc, ncd := loadPerf(t, "testdata/layouts/no-callchain.txt"), loadPerf(t, "testdata/layouts/no-callchain-no-dso.txt")
	want := directPeriods(t, "testdata/layouts/no-callchain.txt")
	if len(nc.Samples) != 8 || !slices.Equal(samplePeriods(nc), want) || symbols(nc, &nc.Samples[0]) != "cprog2;exc_page_fault" {
		t.Errorf("no call chains: %d samples, periods %v, first %q; want 8, %v, cprog2;exc_page_fault", len(nc.Samples), samplePeriods(nc), symbols(nc, &nc.Samples[0]), want)
	}
	for i := range ncd.Samples {
		if symbols(ncd, &ncd.Samples[i]) != symbols(nc, &nc.Samples[i]) {
			t.Errorf("no call chains, no dso: sample %d %q, want %q", i, symbols(ncd, &ncd.Samples[i]), symbols(nc, &nc.Samples[i]))
		}
	}
}

// A file cut off in the middle of a line (copied while perf wrote it)
// loads its complete samples and says where it was cut.
func TestPerfCut(t *testing.T) {
	p := loadPerf(t, "testdata/layouts/cut.txt")
	def := loadPerf(t, "testdata/layouts/default.txt")
	const warning = "the file ends in the middle of line 35 (cut off while perf was writing it?): the sample from line 34 on is incomplete and was left out"
	if len(p.Samples) != 4 || !slices.Equal(p.Warnings, []string{warning}) {
		t.Fatalf("%d samples, warnings %q; want 4 and %q", len(p.Samples), p.Warnings, warning)
	}
	for i := range p.Samples {
		if symbols(p, &p.Samples[i]) != symbols(def, &def.Samples[i]) {
			t.Errorf("sample %d differs from the whole file's", i)
		}
	}
	// Cut in an event line, the error it would be is a warning too.
	data, _ := os.ReadFile("testdata/layouts/default.txt")
	at := strings.Index(string(data), "cprog2 16274  2392.393659") // the second sample
	p, err := analysis.Parse(context.Background(), "cut2.txt", data[:at+10], analysis.LoadOptions{})
	if err != nil || len(p.Samples) != 1 || len(p.Warnings) != 1 {
		t.Errorf("cut in an event line: %v, %v; want 1 sample and a warning", p, err)
	}
}

func loadPerf(t *testing.T, path string) *analysis.Profile {
	t.Helper()
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	testprof.Check(t, path, p)
	return p
}

// symbols is a sample's stack without offsets and with the comm as root.
func symbols(p *analysis.Profile, s *analysis.Sample) string { return testprof.StackNames(p, s) }

func samplePeriods(p *analysis.Profile) []int64 {
	var out []int64
	for i := range p.Samples {
		out = append(out, p.Value(&p.Samples[i], 1))
	}
	return out
}

var directPeriod = regexp.MustCompile(`^\s*\S+ \d+ +[\d.]+: +(\d+) cpu-clock:`)

// directPeriods reads the period of every event line of a perf script file
// with one regular expression, independently of the loader.
func directPeriods(t *testing.T, path string) []int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, l := range strings.Split(string(data), "\n") {
		if m := directPeriod.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			out = append(out, v)
		}
	}
	return out
}

// A recording whose period varies from sample to sample (perf record -F,
// the default) has no fixed period: each sample weighs its own, and the
// profile's Period stays 0. The periods are read directly from the file
// (Firefox Profiler's test.perf.gz: cycles:uppp samples of periods 1 to
// millions; one cycles:ppp sample, dropped).
func TestPerfVaryingPeriod(t *testing.T) {
	path := testprof.CorpusFile(t, "firefox-profiler/src/test/fixtures/upgrades/test.perf.gz")
	p := loadPerf(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(zr)
	var want []int64
	for _, l := range strings.Split(string(text), "\n") {
		if m := anyPeriod.FindStringSubmatch(l); m != nil && m[2] == "cycles:uppp" {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			want = append(want, v)
		}
	}
	got := samplePeriods(p)
	if !slices.Equal(got, want) || p.Period != 0 || p.ValueTypes[1].Type != "cycles:uppp" {
		t.Errorf("periods %v, Period %d, type %v; want %v, 0, cycles:uppp", got, p.Period, p.ValueTypes[1], want)
	}
	if slices.Min(want) == slices.Max(want) {
		t.Fatalf("the periods do not vary: %v", want)
	}
}

var anyPeriod = regexp.MustCompile(`^\S.*?\s(\d+)\s+(\S+):\s*$`)
