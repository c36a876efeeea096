// Package testprof is what the tests of analysis and of every format share:
// the shared corpus of real profiles, random profiles, and the loaders'
// contract (a consistent profile, or an error that names the input and the
// place), checked on given inputs and under fuzzing. Tests alone import it.
package testprof

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/golden"
)

// Corpus returns the directory of the shared corpus: $PROFLENS_CORPUS when
// set (for tools that run the tests in a copy of the module, as mutation
// testing does), else ../shared/corpus beside the repository. It skips the
// test when the corpus is absent.
func Corpus(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("PROFLENS_CORPUS"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "MANIFEST.md")); err != nil {
			t.Skip("corpus not present at " + dir)
		}
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("no go.mod above the test's directory: the corpus cannot be found")
		}
		dir = up
	}
	corpus := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(corpus, "MANIFEST.md")); err != nil {
		t.Skip("corpus not present at " + corpus)
	}
	return corpus
}

// CorpusFile returns the path of a corpus file, skipping the test when the
// corpus or the file is absent.
func CorpusFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Corpus(t), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s absent: %v", rel, err)
	}
	return p
}

// BenchInput reads a corpus file for a benchmark, which then reports its
// throughput in bytes and its allocations.
func BenchInput(b *testing.B, rel string) []byte {
	data, err := os.ReadFile(CorpusFile(b, rel))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return data
}

// Check fails the test unless p keeps the invariants of every loader's
// result: ids in range, one value per value type, a call tree whose roots
// and unrooted part add up to each total, and timed samples in time order.
func Check(t testing.TB, name string, p *analysis.Profile) {
	t.Helper()
	if p.DefaultValue < 0 || p.DefaultValue >= len(p.ValueTypes) {
		t.Fatalf("%s: default value %d of %d types", name, p.DefaultValue, len(p.ValueTypes))
	}
	for _, st := range p.Stacks.All() {
		for _, fr := range st {
			if fr < 0 || int(fr) >= len(p.Frames) {
				t.Fatalf("%s: stack frame %d of %d", name, fr, len(p.Frames))
			}
		}
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		if s.Stack < 0 || int(s.Stack) >= p.Stacks.Len() || len(p.Values(s)) != len(p.ValueTypes) {
			t.Fatalf("%s: bad sample %+v", name, *s)
		}
		if p.Timed && i > 0 && s.Time < p.Samples[i-1].Time {
			t.Fatalf("%s: timed samples out of order at %d", name, i)
		}
	}
	tree := analysis.NewTree(p)
	for v := range p.ValueTypes {
		var roots int64
		for _, r := range tree.Roots {
			roots += tree.Total[v][r]
		}
		if roots+tree.Unrooted[v] != p.Total(v) {
			t.Fatalf("%s: tree total %d + unrooted %d != profile total %d", name, roots, tree.Unrooted[v], p.Total(v))
		}
	}
}

// CheckError fails the test unless err is a SyntaxError that names the
// input and says where: a line, a byte offset, a path into the data
// ("profiles[0]: events[6]"), a trace profile ("profile 0x7b"), or the
// whole input ("expected ...").
func CheckError(t testing.TB, name string, err error) {
	t.Helper()
	var se *analysis.SyntaxError
	if !errors.As(err, &se) || se.File != name || !strings.HasPrefix(err.Error(), name+": ") {
		t.Fatalf("error %v: want a SyntaxError naming %s", err, name)
	}
	if se.Line <= 0 && se.Offset < 0 && !strings.ContainsAny(se.Msg, "[") && !strings.HasPrefix(se.Msg, "expected") && !strings.HasPrefix(se.Msg, "profile ") {
		t.Fatalf("error %v: want a line, a byte offset or a path", err)
	}
}

// CheckParse parses data as format and checks the result: a profile that
// keeps the invariants (Check), or an error that names the input and the
// place (CheckError).
func CheckParse(t testing.TB, format, name string, data []byte) {
	t.Helper()
	p, err := analysis.Parse(context.Background(), name, data, analysis.LoadOptions{Format: format, Limit: 1 << 24})
	if err != nil {
		CheckError(t, name, err)
		return
	}
	Check(t, name, p)
}

// WantDump parses in as format, checks the profile (Check) and compares
// its Dump with want.
func WantDump(t testing.TB, format, name, in, want string) {
	t.Helper()
	p, err := analysis.Parse(context.Background(), name, []byte(in), analysis.LoadOptions{Format: format})
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	Check(t, name, p)
	if got := Dump(p, 0); got != want {
		t.Errorf("%s: Parse =\n%s\nwant\n%s", name, got, want)
	}
}

// Fuzz runs CheckParse on the fuzzer's inputs. Each seed is a file under the
// test's testdata directory, a path from the test's directory, or else the
// seed's text itself.
func Fuzz(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		data, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			data, err = os.ReadFile(s)
		}
		if err != nil {
			data = []byte(s) // an inline seed
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { CheckParse(t, format, "in", data) })
}

// WantLimit fails the test unless err is a *analysis.LimitError naming the
// load option that raises the limit.
func WantLimit(t testing.TB, err error, option string) {
	t.Helper()
	var le *analysis.LimitError
	if !errors.As(err, &le) || le.Option != option {
		t.Fatalf("error %v, want a LimitError naming %s=", err, option)
	}
}

// StackNames renders a sample's stack as "a;b;c" with frame names.
func StackNames(p *analysis.Profile, s *analysis.Sample) string {
	var names []string
	for _, f := range p.Stacks.At(s.Stack) {
		names = append(names, p.Frames[f].Name)
	}
	return strings.Join(names, ";")
}

// Threads returns the thread labels of p's samples, sorted.
func Threads(p *analysis.Profile) []string {
	seen := map[string]bool{}
	var out []string
	for i := range p.Samples {
		if th := p.Thread(&p.Samples[i]); !seen[th] {
			seen[th] = true
			out = append(out, th)
		}
	}
	sort.Strings(out)
	return out
}

// NameTree sums a tree's self and total values by path of frame names, the
// form folded stacks keep.
func NameTree(t *analysis.Tree, v int) map[string][2]int64 {
	out := map[string][2]int64{}
	key := make([]string, t.Len())
	for n := int32(0); n < int32(t.Len()); n++ {
		key[n] = t.Name(n)
		if pa := t.Parent[n]; pa >= 0 {
			key[n] = key[pa] + "\x00" + key[n]
		}
		s := out[key[n]]
		out[key[n]] = [2]int64{s[0] + t.Self[v][n], s[1] + t.Total[v][n]}
	}
	for k, s := range out {
		if s == [2]int64{} {
			delete(out, k)
		}
	}
	return out
}

// DropArgs removes a trailing balanced "(…)" from a function name, as the
// expected outputs of inferno's collapsers write C++ and Rust names.
func DropArgs(f string) string {
	if !strings.HasSuffix(f, ")") {
		return f
	}
	depth := 0
	for i := len(f) - 1; i >= 0; i-- {
		switch f[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return f[:i]
			}
		}
	}
	return f
}

// Goldens loads each file (a subtest each), checks the loaders' contract
// and compares its dump, at the lines the file gives, with the golden file
// beside it: the file's name without its extension, then ".golden".
func Goldens(t *testing.T, files ...string) {
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := analysis.Load(context.Background(), f, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			Check(t, f, p)
			golden.Check(t, strings.TrimSuffix(f, filepath.Ext(f))+".golden", []byte(Dump(p.At(analysis.Lines), 0)))
		})
	}
}
