package pprof

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// oracleFilters are the filters checked against go tool pprof.
var oracleFilters = []struct{ focus, ignore, hide string }{
	{focus: "Fibonacci"},
	{ignore: "runtime"},
	{hide: `^runtime\.`},
	{focus: "big", ignore: "sub", hide: "nat"},
	{focus: `fib\.go`},
	{focus: "main", hide: "main"},
	{focus: "com.example.function0", ignore: "function1"},
	{hide: "function1", focus: "function1"},
	{hide: "."},
	{focus: "inline", hide: `testing\.`},
}

// filterOf compiles a filter and returns it with pprof's flags for it.
func filterOf(focus, ignore, hide string) (analysis.Filter, []string) {
	var f analysis.Filter
	var flags []string
	for _, re := range []struct {
		flag, expr string
		dst        **regexp.Regexp
	}{{"-focus=", focus, &f.Focus}, {"-ignore=", ignore, &f.Ignore}, {"-hide=", hide, &f.Hide}} {
		if re.expr != "" {
			*re.dst = regexp.MustCompile(re.expr)
			flags = append(flags, re.flag+re.expr)
		}
	}
	return f, flags
}

// runPprofTraces runs go tool pprof -traces on path for sample type index
// v with extra flags and returns the value per call path, the frame names
// root first joined by ";".
func runPprofTraces(t *testing.T, path string, v int, unit string, extra ...string) map[string]int64 {
	t.Helper()
	args := []string{"tool", "pprof", "-traces", "-symbolize=none", "-sample_index=" + strconv.Itoa(v)}
	if u := pprofUnitFlag[unit]; u != "" {
		args = append(args, "-unit="+u)
	}
	cmd := exec.Command("go", append(append(args, extra...), path)...)
	cmd.Env = append(os.Environ(), "PPROF_BINARY_PATH=/nonexistent", "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s %s: %v", strings.Join(args, " "), path, err)
	}
	paths, err := parsePprofTraces(string(out))
	if err != nil {
		t.Fatalf("parse pprof -traces of %s: %v\n%s", path, err, out)
	}
	return paths
}

var traceLabelRe = regexp.MustCompile(`^\s*[A-Za-z_][\w.-]*:\s\s`)

var traceValueRe = regexp.MustCompile(`^\s*(-?[0-9]+)[A-Za-z]*\s+(.*)$`)

// parsePprofTraces reads -traces output: blocks after a dashed line, the
// first line a value and the leaf frame, the next lines the callers.
func parsePprofTraces(out string) (map[string]int64, error) {
	paths := map[string]int64{}
	var value int64
	var frames []string
	flush := func() {
		if frames != nil {
			for i, j := 0, len(frames)-1; i < j; i, j = i+1, j-1 {
				frames[i], frames[j] = frames[j], frames[i]
			}
			paths[strings.Join(frames, ";")] += value
		}
		frames = nil
	}
	inTraces := false
	for ln, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "-----------+"):
			flush()
			inTraces = true
		case !inTraces || strings.TrimSpace(line) == "":
		case frames == nil && traceLabelRe.MatchString(line): // "   api:  query", a sample's label
		case frames == nil:
			m := traceValueRe.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("line %d: want a value and a frame, got %q", ln+1, line)
			}
			value, _ = strconv.ParseInt(m[1], 10, 64)
			frames = []string{traceFrame(m[2])}
		default:
			frames = append(frames, traceFrame(line))
		}
	}
	flush()
	return paths, nil
}

// traceFrame is a frame's name in a -traces line, without the mark of an
// inlined call.
func traceFrame(s string) string {
	return strings.TrimSuffix(strings.TrimSpace(s), " (inline)")
}

// treePaths sums the self values of t's nodes per call path of names.
func treePaths(t *analysis.Tree, v int) map[string]int64 {
	paths := map[string]int64{}
	names := make([]string, 0, 64)
	for n := range int32(t.Len()) {
		names = append(names[:t.Depth[n]], t.Name(n))
		if s := t.Self[v][n]; s != 0 {
			paths[strings.Join(names, ";")] += s
		}
	}
	return paths
}

// TestFilterAgainstPprof checks Profile.Filter against go tool pprof with
// -focus, -ignore and -hide: the filtered call tree's value per call path
// against -traces; and the flat profile of that tree against NewTop's own
// filters, which TestTopFiltersAgainstPprof checks against -top.
func TestFilterAgainstPprof(t *testing.T) {
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
		v := p.DefaultValue
		vt := p.ValueTypes[v]
		for _, of := range oracleFilters {
			f, flags := filterOf(of.focus, of.ignore, of.hide)
			t.Run(name+" "+strings.Join(flags, " "), func(t *testing.T) {
				tree := analysis.NewTree(p.Filter(f))
				want := runPprofTraces(t, path, v, vt.Unit, flags...)
				got := treePaths(tree, v)
				comparePaths(t, got, want)
				top, wantTop := analysis.NewTop(tree, analysis.TopOptions{Value: v}), analysis.NewTop(analysis.NewTree(p), analysis.TopOptions{Value: v, Focus: f.Focus, Ignore: f.Ignore, Hide: f.Hide})
				if !reflect.DeepEqual(top, wantTop) {
					t.Errorf("top of the filtered tree = %+v, want NewTop's filters' %+v", top, wantTop)
				}
			})
		}
	}
}

func comparePaths(t *testing.T, got, want map[string]int64) {
	t.Helper()
	bad := 0
	for path, w := range want {
		if g := got[path]; g != w && bad < 5 {
			bad++
			t.Errorf("path %s = %d, pprof -traces %d", path, g, w)
		}
	}
	for path, g := range got {
		if _, ok := want[path]; !ok && g != 0 && bad < 5 {
			bad++
			t.Errorf("path %s = %d, not in pprof -traces", path, g)
		}
	}
}

// TestFilterKeepsIDs: a filtered profile has the same samples and stack
// ids, its stacks are subsequences of the originals, and the zero filter
// is the profile itself.
func TestFilterKeepsIDs(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join("testdata", "pprof-oracle", "fib.pb.gz"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Filter(analysis.Filter{}) != p {
		t.Errorf("Filter(zero) made a copy")
	}
	f, _ := filterOf("big", "", `^runtime\.`)
	q := p.Filter(f)
	if q.Stacks.Len() != p.Stacks.Len() || len(q.Samples) != len(p.Samples) {
		t.Fatalf("filtered: %d stacks, %d samples; want %d, %d", q.Stacks.Len(), len(q.Samples), p.Stacks.Len(), len(p.Samples))
	}
	if f.String() != `focus=big hide=^runtime\.` {
		t.Errorf("String() = %q", f.String())
	}
	for id, st := range p.Stacks.All() {
		got, i := q.Stacks.At(id), 0
		for _, fr := range st {
			if i < len(got) && got[i] == fr {
				i++
			}
		}
		if i != len(got) {
			t.Errorf("stack %d filtered to %v, not a subsequence of %v", id, got, st)
		}
	}
}
