package pprof

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/testtool"
)

// pprofUnitFlag maps a value unit to go tool pprof's -unit, so that it
// prints raw integers in that unit; "" for units it does not scale.
var pprofUnitFlag = map[string]string{
	"nanoseconds": "ns", "microseconds": "us", "milliseconds": "ms", "seconds": "s", "bytes": "B",
}

// pprofTop is what `go tool pprof -top` printed: the total and per
// function (flat, cum), in the value type's unit.
type pprofTop struct {
	total int64
	rows  map[string][2]int64
	order []string // names in pprof's order
}

var (
	topTotalRe = regexp.MustCompile(`of (-?[0-9.]+)[A-Za-z]* total`)
	topRowRe   = regexp.MustCompile(`^\s*(-?[0-9.]+)[A-Za-z]*\s+\S+\s+\S+\s+(-?[0-9.]+)[A-Za-z]*\s+\S+\s+(.*)$`)
)

// parsePprofTop reads the text of `go tool pprof -top` with raw units.
func parsePprofTop(out string) (*pprofTop, error) {
	top := &pprofTop{rows: map[string][2]int64{}}
	inRows := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if m := topTotalRe.FindStringSubmatch(line); m != nil && !inRows {
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: total %q: %w", ln, m[1], err)
			}
			top.total = v
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "flat") {
			inRows = true
			continue
		}
		if !inRows {
			continue
		}
		m := topRowRe.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: not a top row: %q", ln, line)
		}
		flat, err1 := strconv.ParseInt(m[1], 10, 64)
		cum, err2 := strconv.ParseInt(m[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %d: values %q %q are not integers", ln, m[1], m[2])
		}
		name := strings.TrimSuffix(strings.TrimSuffix(m[3], " (inline)"), " (partial-inline)")
		top.rows[name] = [2]int64{flat, cum}
		top.order = append(top.order, name)
	}
	return top, sc.Err()
}

// runPprofTop runs go tool pprof on path for sample type index v, with
// extra flags.
func runPprofTop(t *testing.T, path string, v int, unit string, extra ...string) *pprofTop {
	t.Helper()
	args := []string{"tool", "pprof", "-top", "-nodecount=1000000000", "-nodefraction=0", "-edgefraction=0",
		"-symbolize=none", "-sample_index=" + strconv.Itoa(v)}
	args = append(args, extra...)
	if u := pprofUnitFlag[unit]; u != "" {
		args = append(args, "-unit="+u)
	}
	cmd := exec.Command("go", append(args, path)...)
	cmd.Env = append(os.Environ(), "PPROF_BINARY_PATH=/nonexistent", "TZ=UTC")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s %s: %v\n%s", strings.Join(args, " "), path, err, stderr.String())
	}
	top, err := parsePprofTop(string(out))
	if err != nil {
		t.Fatalf("parse pprof -top of %s: %v\n%s", path, err, out)
	}
	return top
}

// symbolized reports whether every location of the pprof file at path has
// at least one line with a named function.
func symbolized(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return false, err
	}
	for _, l := range p.Location {
		if len(l.Line) == 0 || l.Line[0].Function == nil || l.Line[0].Function.Name == "" {
			return false, nil
		}
	}
	return len(p.Sample) > 0, nil
}

// corpusFiles lists the corpus files that pprof reads: those with a -top
// oracle under _oracles/go-tool-pprof.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	corpus := testprof.Corpus(t)
	oracles := filepath.Join(corpus, "_oracles", "go-tool-pprof")
	var files []string
	err := filepath.WalkDir(oracles, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".top.txt") {
			return err
		}
		rel, _ := filepath.Rel(oracles, strings.TrimSuffix(p, ".top.txt"))
		files = append(files, filepath.Join(corpus, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestTopAgainstPprof compares NewTop with live `go tool pprof -top` for
// every symbolized pprof file of the corpus and every sample type.
func TestTopAgainstPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof many times")
	}
	eachSymbolized(t, func(t *testing.T, path string, p *analysis.Profile) {
		tree := analysis.NewTree(p)
		for v, vt := range p.ValueTypes {
			want := runPprofTop(t, path, v, vt.Unit)
			compareTop(t, vt, analysis.NewTop(tree, analysis.TopOptions{Value: v}), want)
		}
	})
}

// eachSymbolized runs check, as a subtest, on every symbolized pprof file
// of the corpus (with go tool pprof at hand), loaded.
func eachSymbolized(t *testing.T, check func(t *testing.T, path string, p *analysis.Profile)) {
	testtool.Need(t, "go")
	corpus := testprof.Corpus(t)
	for _, path := range corpusFiles(t) {
		ok, err := symbolized(path)
		if err != nil || !ok {
			continue
		}
		t.Run(strings.TrimPrefix(path, corpus+"/"), func(t *testing.T) {
			p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, path, p)
		})
	}
}

// compareTop reports every difference between got and the oracle.
func compareTop(t *testing.T, vt analysis.ValueType, got *analysis.Top, want *pprofTop) {
	t.Helper()
	if got.Total != want.total {
		t.Errorf("%s: total = %d, pprof %d", vt.Type, got.Total, want.total)
	}
	seen := map[string]bool{}
	bad := 0
	for _, r := range got.Rows {
		seen[r.Name] = true
		w, ok := want.rows[r.Name]
		if (!ok || w != [2]int64{r.Flat, r.Cum}) && bad < 10 {
			bad++
			t.Errorf("%s: %q flat/cum = %d/%d, pprof %v (present %v)", vt.Type, r.Name, r.Flat, r.Cum, w, ok)
		}
	}
	for name, w := range want.rows {
		if !seen[name] && bad < 10 {
			bad++
			t.Errorf("%s: %q missing, pprof flat/cum %v", vt.Type, name, w)
		}
	}
	for i, r := range got.Rows {
		if i < len(want.order) && r.Name != want.order[i] {
			t.Errorf("%s: row %d is %q, pprof has %q there", vt.Type, i, r.Name, want.order[i])
			break
		}
	}
}

// TestTopAgainstPprofGolden compares NewTop with `go tool pprof -top`
// output recorded under testdata/pprof-oracle (see the README there).
func TestTopAgainstPprofGolden(t *testing.T) {
	dir := filepath.Join("testdata", "pprof-oracle")
	for _, name := range []string{"fib.pb.gz", "simple.prof", "java.cpu", "inline_hot.pprof"} {
		t.Run(name, func(t *testing.T) {
			p, err := analysis.Load(context.Background(), filepath.Join(dir, name), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tree := analysis.NewTree(p)
			for v, vt := range p.ValueTypes {
				out, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s.%d.top.txt", name, v)))
				if err != nil {
					t.Fatal(err)
				}
				want, err := parsePprofTop(string(out))
				if err != nil {
					t.Fatal(err)
				}
				if len(want.rows) == 0 {
					t.Fatalf("%s.%d.top.txt has no rows", name, v)
				}
				compareTop(t, vt, analysis.NewTop(tree, analysis.TopOptions{Value: v}), want)
			}
		})
	}
}

// TestTopFiltersAgainstPprof compares focus, ignore and hide with live
// `go tool pprof -focus/-ignore/-hide` on the small copied files.
func TestTopFiltersAgainstPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	testtool.Need(t, "go")
	filters := []struct{ focus, ignore, hide string }{
		{focus: "Fibonacci"},
		{ignore: "runtime"},
		{hide: `^runtime\.`},
		{focus: "big", ignore: "sub", hide: "nat"},
		{focus: `fib\.go`},
		{focus: "main", hide: "main"},
		{focus: "com.example.function0", ignore: "function1"},
		{hide: "."},
	}
	for _, name := range []string{"fib.pb.gz", "simple.prof", "java.cpu", "inline_hot.pprof"} {
		path := filepath.Join("testdata", "pprof-oracle", name)
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tree := analysis.NewTree(p)
		v := p.DefaultValue
		for _, f := range filters {
			o := analysis.TopOptions{Value: v}
			var extra []string
			for _, re := range []struct {
				flag, expr string
				dst        **regexp.Regexp
			}{{"-focus=", f.focus, &o.Focus}, {"-ignore=", f.ignore, &o.Ignore}, {"-hide=", f.hide, &o.Hide}} {
				if re.expr != "" {
					*re.dst = regexp.MustCompile(re.expr)
					extra = append(extra, re.flag+re.expr)
				}
			}
			t.Run(name+" "+strings.Join(extra, " "), func(t *testing.T) {
				want := runPprofTop(t, path, v, p.ValueTypes[v].Unit, extra...)
				compareTop(t, p.ValueTypes[v], analysis.NewTop(tree, o), want)
			})
		}
	}
}

// TestTopGranularityAgainstPprof compares NewTop at each granularity with
// live `go tool pprof -top -lines`, `-files` and `-addresses` on the small
// copied files, and functions with plain -top. pprof's -files keeps a
// function's start line in its node key, so that one file shows as several
// rows when its functions have start lines (inline_hot.pprof: three files,
// seven rows); its -files runs on a copy with the start lines cleared,
// where a row is one file, as ours is.
func TestTopGranularityAgainstPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	testtool.Need(t, "go")
	for _, name := range []string{"fib.pb.gz", "simple.prof", "java.cpu", "inline_hot.pprof"} {
		path := filepath.Join("testdata", "pprof-oracle", name)
		p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for g, flag := range []string{"-functions", "-lines", "-files", "-addresses"} {
			t.Run(name+" "+flag, func(t *testing.T) {
				q := p.At(analysis.Granularity(g))
				if flag == "-addresses" && p.Available()[analysis.Addresses] == 0 {
					t.Skip("no addresses")
				}
				src := path
				if flag == "-files" {
					src = withoutStartLines(t, path)
				}
				tree := analysis.NewTree(q)
				for v, vt := range q.ValueTypes {
					want := runPprofTop(t, src, v, vt.Unit, flag)
					if len(want.rows) == 0 {
						t.Fatalf("pprof %s printed no rows", flag)
					}
					compareTop(t, vt, analysis.NewTop(tree, analysis.TopOptions{Value: v}), want)
				}
			})
		}
	}
}

// withoutStartLines writes a copy of the pprof file at path whose functions
// have no start line, and returns its path.
func withoutStartLines(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pp, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range pp.Function {
		fn.StartLine = 0
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := pp.Write(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTopGranularityCorpus compares NewTop at lines, files and addresses
// with live go tool pprof for every symbolized pprof file of the corpus,
// in its default value type.
func TestTopGranularityCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof many times")
	}
	eachSymbolized(t, func(t *testing.T, path string, p *analysis.Profile) {
		v, av := p.DefaultValue, p.Available()
		for g, flag := range map[analysis.Granularity]string{analysis.Lines: "-lines", analysis.Files: "-files", analysis.Addresses: "-addresses"} {
			if av[g] == 0 {
				continue
			}
			src := path
			if g == analysis.Files {
				src = withoutStartLines(t, path)
			}
			want := runPprofTop(t, src, v, p.ValueTypes[v].Unit, flag)
			compareTop(t, p.ValueTypes[v], analysis.NewTop(analysis.NewTree(p.At(g)), analysis.TopOptions{Value: v}), want)
		}
	})
}
