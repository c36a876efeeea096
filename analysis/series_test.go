package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestLoadSeriesParca loads Parca's ten heap snapshots (3 s apart) as a
// series and checks the order, the intervals and the step change that
// MANIFEST.md records: inuse_space 47781.96kB for eight snapshots, then
// 137.04MB.
func TestLoadSeriesParca(t *testing.T) {
	dir := filepath.Join(testprof.Corpus(t), "parca", "pkg", "query", "testdata", "many")
	p, err := analysis.LoadSeries(context.Background(), filepath.Join(dir, "*.pb.gz"), analysis.LoadOptions{Value: "inuse_space"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "series" || len(p.IntervalNames) != 10 || len(p.Intervals) != 11 {
		t.Fatalf("series = format %q, %d names, %d bounds; want series, 10, 11", p.Format, len(p.IntervalNames), len(p.Intervals))
	}
	if !p.Timed || p.ValueTypes[p.DefaultValue].Type != "inuse_space" {
		t.Errorf("Timed = %v, default %s; want true, inuse_space", p.Timed, p.ValueTypes[p.DefaultValue].Type)
	}
	wantRecords := []int{54, 81, 100, 108, 114, 125, 135, 145, 162, 241}
	v := p.DefaultValue
	for i := range 10 {
		lo, hi := p.Intervals[i], p.Intervals[i+1]
		if hi-lo != wantRecords[i] {
			t.Errorf("profile %d has %d samples, want %d", i, hi-lo, wantRecords[i])
		}
		var sum int64
		for _, s := range p.Samples[lo:hi] {
			sum += p.Value(&s, v)
			if want := int64(i) * 3 * int64(time.Second); s.Time/int64(time.Second) != want/int64(time.Second) {
				t.Fatalf("profile %d sample time %d, want about %d", i, s.Time, want)
			}
		}
		kb := float64(sum) / 1024
		if i < 8 && (kb < 47781.95 || kb > 47781.97) {
			t.Errorf("profile %d inuse_space = %.2fkB, want 47781.96kB", i, kb)
		}
		if i >= 8 && (kb/1024 < 137.035 || kb/1024 > 137.045) {
			t.Errorf("profile %d inuse_space = %.2fMB, want 137.04MB", i, kb/1024)
		}
	}
	if p.IntervalNames[0] != "1644509272337470000.pb.gz" {
		t.Errorf("first profile = %s, want the earliest", p.IntervalNames[0])
	}
}

// TestSeriesOrderByName: without start times, profiles are ordered by name
// and the series is not timed.
func TestSeriesOrderByName(t *testing.T) {
	mk := func(src string, n int64) *analysis.Profile {
		p, err := analysis.Parse(context.Background(), src, []byte("a;b "+strconv.FormatInt(n, 10)+"\n"), analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	s, err := analysis.Series("x", []*analysis.Profile{mk("b.folded", 2), mk("a.folded", 1), mk("c.folded", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Timed || s.IntervalNames[0] != "a.folded" || s.Value(&s.Samples[0], 0) != 1 || s.Value(&s.Samples[2], 0) != 3 {
		t.Errorf("Series = timed %v names %v; want untimed, a, b, c", s.Timed, s.IntervalNames)
	}
	if _, err := analysis.LoadSeries(context.Background(), filepath.Join(t.TempDir(), "*.pb.gz"), analysis.LoadOptions{}); err == nil {
		t.Error("LoadSeries of an empty glob: no error")
	}
}

// TestLoadSeriesLimits: the series as a whole keeps to the limits, which
// each of its files keeps too.
func TestLoadSeriesLimits(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 {
		os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".folded"), []byte("a;b 1\na;c 1\na;d 1\na;e 1\n"), 0o644)
	}
	glob := filepath.Join(dir, "*.folded")
	_, err := analysis.LoadSeries(context.Background(), glob, analysis.LoadOptions{Limits: analysis.Limits{Samples: 10}})
	var le *analysis.LimitError
	if !errors.As(err, &le) || le.Option != "max-samples" || le.Max != 10 || le.File != glob {
		t.Errorf("LoadSeries(12 samples, max-samples=10) error %v, want the series past max-samples=10", err)
	}
	if p, err := analysis.LoadSeries(context.Background(), glob, analysis.LoadOptions{Limits: analysis.Limits{Samples: 12}}); err != nil || len(p.Samples) != 12 {
		t.Errorf("LoadSeries(12 samples, max-samples=12) = %v, %v; want 12 samples", p, err)
	}
}
