package cachegrind

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/testtool"
)

// TestGoldens loads the minimal files of testdata and compares each
// profile with its golden dump: costs per function of a file, no calls,
// the summary checked (and read back from below zero).
func TestGoldens(t *testing.T) {
	testprof.Goldens(t, "testdata/small.cachegrind", "testdata/wrapped.cachegrind")
}

// A cachegrind file is not a callgrind one, and the other way round.
func TestSniff(t *testing.T) {
	small, _ := os.ReadFile("testdata/small.cachegrind")
	for _, c := range []struct {
		data string
		want bool
	}{
		{string(small), true},
		{"events: Ir\nfl=a.c\nfn=main\n1 2\n", true},
		{"# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 2\n", false},
		{"version: 1\ncreator: callgrind-3.19.0\ncmd: ./a\npositions: line\nevents: Ir\nfl=a.c\nfn=main\n1 2\n", false},
		{"desc: x\ncmd: ./a\n", false},
	} {
		if got := sniff([]byte(c.data)); got != c.want {
			t.Errorf("sniff(%.40q) = %v, want %v", c.data, got, c.want)
		}
	}
	p, err := analysis.Parse(context.Background(), "s", small, analysis.LoadOptions{})
	if err != nil || p.Format != "cachegrind" || p.ValueIndex("calls") >= 0 {
		t.Errorf("Parse(small) = %v, %v; want a cachegrind profile without calls", p, err)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"noevents", "fl=a.c\nfn=main\n1 2\n", "line 2: expected an \"events:\" line before fn="},
		{"nofn", "events: Ir\nfl=a.c\n1 2\n", "line 3: expected fn= before the first cost line"},
		{"cost", "events: Ir\nfl=a.c\nfn=f\n1 x\n", "line 4: expected a count for Ir, got \"x\""},
		{"many", "events: Ir\nfl=a.c\nfn=f\n1 2 3\n", "line 4: expected at most 1 costs"},
		{"junk", "events: Ir\nfl=a.c\nfn=f\nhello\n", "line 4: expected a cost line"},
		{"empty", "events: Ir\n", "line 2: expected at least one function"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := analysis.Parse(context.Background(), c.name, []byte(c.data), analysis.LoadOptions{Format: "cachegrind"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			testprof.CheckError(t, c.name, err)
		})
	}
}

// TestCgAnnotate records the callgrind package's prog.c under cachegrind
// (cache simulation on: nine events) and checks every function's costs,
// per event, and the program's totals, against cg_annotate's exactly. It
// needs gcc, valgrind and cg_annotate (testtool.Need).
func TestCgAnnotate(t *testing.T) {
	for _, tool := range []string{"gcc", "valgrind", "cg_annotate"} {
		testtool.Need(t, tool)
	}
	dir := t.TempDir()
	src, err := filepath.Abs("../callgrind/testdata/prog.c")
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, "gcc", "-O1", "-g", "-o", "prog", src)
	run(t, dir, "valgrind", "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=cg.out", "./prog")
	p, err := analysis.Load(context.Background(), filepath.Join(dir, "cg.out"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events, totals, want := cgAnnotate(t, dir)
	if len(p.ValueTypes) != len(events) || len(want) < 50 {
		t.Fatalf("value types %v, cg_annotate's events %v and %d functions", p.ValueTypes, events, len(want))
	}
	got := map[string][]int64{}
	for i := range p.Samples {
		s := &p.Samples[i]
		f := p.Frames[p.Stacks.At(s.Stack)[0]]
		file := f.File
		if file == "" {
			file = "???"
		}
		got[file+":"+f.Name] = p.Values(s)
	}
	for k, w := range want {
		if g := got[k]; !slices.Equal(g, w) {
			t.Errorf("%s: %v, cg_annotate %v", k, g, w)
		}
	}
	for e := range events {
		if p.Total(e) != totals[e] {
			t.Errorf("%s: total %d, cg_annotate %d", events[e], p.Total(e), totals[e])
		}
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

var (
	cgColumn = regexp.MustCompile(`^\s*([\d,]+)(?: \(\s*[\d.]+%\))?`)
)

// cgAnnotate runs cg_annotate on DIR/cg.out and returns its events, its
// program totals and each function's costs keyed "file:function"
// (functions under cg_annotate's threshold are not listed: --threshold=0).
func cgAnnotate(t *testing.T, dir string) (events []string, totals []int64, funcs map[string][]int64) {
	out := run(t, dir, "cg_annotate", "--auto=no", "--threshold=0", "cg.out")
	funcs = map[string][]int64{}
	inList := false
	for _, l := range strings.Split(out, "\n") {
		if f, ok := strings.CutPrefix(l, "Events shown:"); ok {
			events = strings.Fields(f)
		}
		if strings.HasSuffix(l, "file:function") {
			inList = true
			continue
		}
		rest, cols := l, []int64(nil)
		for range events {
			m := cgColumn.FindStringSubmatch(rest)
			if m == nil {
				break
			}
			v, _ := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
			cols, rest = append(cols, v), rest[len(m[0]):]
		}
		if len(events) == 0 || len(cols) != len(events) {
			continue
		}
		name := strings.TrimSpace(rest)
		switch {
		case name == "PROGRAM TOTALS":
			totals = cols
		case inList:
			funcs[name] = cols
		}
	}
	if totals == nil || len(funcs) == 0 {
		t.Fatalf("no totals or functions in cg_annotate's output:\n%s", out)
	}
	return events, totals, funcs
}

// A cost line before any fl= or fn= line is an error, not a cost of a
// function that does not exist yet.
func TestCostBeforeFunction(t *testing.T) {
	_, err := analysis.Parse(context.Background(), "c.out", []byte("events: Ir\n1 2\n"), analysis.LoadOptions{Format: "cachegrind"})
	if err == nil || err.Error() != "c.out: line 2: expected fn= before the first cost line" {
		t.Errorf("error %v", err)
	}
}
