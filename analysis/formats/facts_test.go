package formats

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/golden"
)

// factsPackages are the format packages whose testdata files the facts
// table covers.
var factsPackages = []string{"austin", "cachegrind", "callgrind", "chrome", "firefox", "folded", "formats", "gotrace", "jfr", "perf", "pyinstrument", "speedscope", "v8"}

// notInput are testdata files that are no profile to load: expected
// outputs, sources, notes, fuzz corpora.
var notInput = regexp.MustCompile(`\.golden$|\.md$|\.c$|\.cpp$|\.go\.txt$|collapsed|/fuzz/|/golden/`)

// TestFacts: the facts of every testdata file of the format packages
// beyond its stacks (format, value types and totals, period, start,
// duration, time order, samples, threads and processes), or the error it
// gives, in one table (testdata/facts.golden). Each line was checked
// against its file when it was written: the period of a perf recording of
// fixed period (-c 100000: 100000) and none for varying or absent periods;
// durations from the files' own start and end times (V8 startTime/endTime,
// the last span's end for trace events, pyinstrument's session duration);
// threads and processes as the files name them.
func TestFacts(t *testing.T) {
	var files []string
	for _, pkg := range factsPackages {
		filepath.WalkDir(filepath.Join("..", pkg, "testdata"), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !notInput.MatchString(filepath.ToSlash(path)) {
				files = append(files, path)
			}
			return nil
		})
	}
	slices.Sort(files)
	if len(files) < 40 {
		t.Fatalf("found %d testdata files, want more than 40", len(files))
	}
	var b strings.Builder
	for _, f := range files {
		name := strings.TrimPrefix(filepath.ToSlash(f), "../")
		p, err := analysis.Load(context.Background(), f, analysis.LoadOptions{})
		if err != nil {
			msg := strings.ReplaceAll(err.Error(), f, name)
			fmt.Fprintf(&b, "%s: error: %s\n", name, msg)
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", name, testprof.Facts(p))
	}
	golden.Check(t, "testdata/facts.golden", []byte(b.String()))
}
