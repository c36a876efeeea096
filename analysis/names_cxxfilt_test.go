package analysis_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/testtool"
)

// mangled finds the mangled symbols of perf script stack lines.
var mangled = regexp.MustCompile(`\s(_[ZR][0-9A-Za-z_$.]+)(?:\+0x[0-9a-f]+)? \(`)

// crateHash is the disambiguator c++filt prints after a Rust v0 crate name.
var crateHash = regexp.MustCompile(`\[[0-9a-f]{8,}\]`)

// TestCleanNameCxxfilt demangles every mangled symbol of the corpus's perf
// files with CleanName and with binutils' c++filt, an independent
// demangler: they agree, but for the crate disambiguators ("std[a32b…]")
// that c++filt prints for Rust v0 symbols and we leave out.
func TestCleanNameCxxfilt(t *testing.T) {
	cxxfilt := testtool.Need(t, "c++filt")
	var syms []string
	seen := map[string]bool{}
	for _, rel := range []string{"speedscope/sample/profiles/linux-perf/rust-mangled.linux-perf.txt", "flamegraph/test/perf-java-faults-01.txt"} {
		f, err := os.Open(testprof.CorpusFile(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := mangled.FindStringSubmatch(sc.Text()); m != nil && !seen[m[1]] {
				seen[m[1]] = true
				syms = append(syms, m[1])
			}
		}
		f.Close()
	}
	if len(syms) < 10 {
		t.Fatalf("found %d mangled symbols in the corpus, want at least 10", len(syms))
	}
	cmd := exec.CommandContext(context.Background(), cxxfilt)
	cmd.Stdin = strings.NewReader(strings.Join(syms, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("c++filt: %v", err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, s := range syms {
		if got, w := analysis.CleanName(s), crateHash.ReplaceAllString(want[i], ""); got != w {
			t.Errorf("CleanName(%q) = %q, c++filt says %q", s, got, w)
		}
	}
	t.Logf("%d symbols agree with %s", len(syms), filepath.Base(cxxfilt))
}
