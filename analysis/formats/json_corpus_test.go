package formats

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestJSONCorpus loads the V8, Chrome and speedscope files of the shared
// corpus and checks the facts MANIFEST.md gives for them (counted there with
// independent Python counters): the number of samples, time order, and the
// profile's span.
func TestJSONCorpus(t *testing.T) {
	const ss, ff = "speedscope/sample/profiles/", "firefox-profiler/src/test/fixtures/upgrades/"
	for _, c := range []struct {
		file, format string
		samples      int
		spanUs       int64 // endTime - startTime, 0 when not checked
	}{
		{ss + "Chrome/65/simple.cpuprofile", "v8", 29, 47892},
		{ss + "Chrome/65/sucrase.cpuprofile", "v8", 17138, 22012290},
		{ff + "hello.cjs-20231120T211435.cpuprofile", "v8", 150, 190704},
		{ss + "node/10.11.0/example.cpuprofile", "v8", 29, 0},
		{"lighthouse/core/test/fixtures/traces/cpu-profiler-m86.trace.json", "chrome", 50294, 0},
		{ss + "Chrome/116/Trace-20230603T221323.json", "chrome", 1600, 0},
		{ss + "Chrome/69/simple.json", "chrome", 2051, 0},
		{ss + "Chrome/70/worker.json", "chrome", 3380, 0},
		{ss + "Chrome/141/no-arg-data.json", "chrome", 421, 0},
		{ff + "test.chrome.gz", "chrome", 3711, 0},
		{ff + "test.chrome-unchunked.json", "chrome", 20, 0},
		{ss + "Chrome/65/simple-timeline.json", "chrome", 4081, 0},
		{ss + "speedscope/0.1.2/simple-sampled.speedscope.json", "speedscope", 5, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			p, err := analysis.Load(context.Background(), testprof.CorpusFile(t, c.file), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != c.format || len(p.Samples) != c.samples || !p.Timed || p.Total(0) <= 0 {
				t.Errorf("Load = format %q, %d samples, timed %v, total %d; want %s, %d samples, timed",
					p.Format, len(p.Samples), p.Timed, p.Total(0), c.format, c.samples)
			}
			if c.spanUs != 0 && p.Duration.Microseconds() != c.spanUs {
				t.Errorf("Duration = %v, want %dµs", p.Duration, c.spanUs)
			}
		})
	}
}

// TestJSONCorpusSweep loads every JSON and .cpuprofile file of the corpus
// with format detection: each loads or fails with an error naming the file,
// and never panics. The trace-event files made of B/E/X spans only carry no
// CPU samples and must say so.
func TestJSONCorpusSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep; skipped with -short")
	}
	root := testprof.CorpusFile(t, ".")
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		name := info.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".cpuprofile") {
			return nil
		}
		_, lerr := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if lerr != nil && !strings.Contains(lerr.Error(), path) {
			t.Errorf("Load(%s) error %v does not name the file", path, lerr)
		}
		if strings.Contains(path, "/trace-event/") && lerr != nil {
			t.Errorf("Load(%s) = %v, want a span or sample profile", path, lerr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
