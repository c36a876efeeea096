package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

// TestGranularity runs the tree commands at every granularity on a pprof
// file: top's rows are analysis.NewTop's at that granularity (checked
// against go tool pprof in analysis/pprof), the views and pictures read
// the same tree, and info says what the file allows.
func TestGranularity(t *testing.T) {
	fib, err := filepath.Abs("../../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load "+fib+" as fib"); err != nil {
		t.Fatal(err)
	}
	l := s.Get("fib")
	for g, name := range analysis.Granularities() {
		rec, err := RunForTest(t, s, "top fib n=3 granularity="+name)
		if err != nil {
			t.Fatalf("top granularity=%s: %v", name, err)
		}
		want := analysis.NewTop(analysis.NewTree(l.Profile.At(analysis.Granularity(g))), analysis.TopOptions{Value: l.Value, N: 3})
		rows := rec.Bundles()[0]["application/json"].(map[string]any)["rows"].([]map[string]any)
		for i, r := range want.Rows {
			if rows[i]["name"] != r.Name || rows[i]["flat"] != r.Flat || rows[i]["cum"] != r.Cum {
				t.Errorf("top granularity=%s row %d = %v, want %+v", name, i, rows[i], r)
			}
		}
		if note := "showing 3 of "; !strings.Contains(rec.Text(), note) || !strings.Contains(rec.Text(), name+"; ") {
			t.Errorf("top granularity=%s says %q, want %q… %s", name, rec.Text(), note, name)
		}
		for _, cmd := range []string{"tree depth=2", "view", "flame", "sandwich", "show"} {
			if _, err := RunForTest(t, s, cmd+" fib granularity="+name); err != nil {
				t.Errorf("%s granularity=%s: %v", cmd, name, err)
			}
		}
	}
	rec, err := RunForTest(t, s, "info fib")
	if err != nil {
		t.Fatal(err)
	}
	if want := "functions 127 (default), lines 229, files 42, addresses 246"; !strings.Contains(rec.Text(), want) {
		t.Errorf("info says %q, want %q", rec.Text(), want)
	}
	if _, err := RunForTest(t, s, "top granularity=line"); err == nil || !strings.Contains(err.Error(), "functions, lines, files, addresses") {
		t.Errorf("top granularity=line: error %v, want one listing the granularities", err)
	}
}

// TestGranularityCarriesLevels checks that a view at lines keeps the
// levels the user set at functions: at full names, lines show as their
// function's name and line.
func TestGranularityCarriesLevels(t *testing.T) {
	fib, err := filepath.Abs("../../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load "+fib+" as fib\nlevel 1\nview granularity=lines max=3\nlevel 99\nview granularity=lines max=0")
	if err != nil {
		t.Fatal(err)
	}
	views := rec.Bundles()[2:]
	if v := views[0]["text/plain"].(string); strings.Contains(v, "main.go:") || !strings.Contains(v, "granularity=lines") {
		t.Errorf("view at level 1 and lines = %q, want packages, with the granularity in its header", v)
	}
	if v := views[2]["text/plain"].(string); !strings.Contains(v, "math/big.addVV:51 ") {
		t.Errorf("view at level 99 and lines lacks math/big.addVV:51:\n%s", v)
	}
}

func TestGranularityCompletes(t *testing.T) {
	in := kernel.New(t.TempDir(), testTable())
	got := in.Complete("top granularity=", len("top granularity="))
	if want := "granularity=functions granularity=lines granularity=files granularity=addresses"; strings.Join(got.Matches, " ") != want {
		t.Errorf("Complete(top granularity=) = %q, want %q", got.Matches, want)
	}
}

// TestGranularityPySpy checks that py-spy's per-line frames are one row
// per function by default and one per line at granularity=lines (py-spy
// speedscope of compaction/testdata/level1, see its README).
func TestGranularityPySpy(t *testing.T) {
	path, err := filepath.Abs("../../compaction/testdata/level1/py-spy.speedscope.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load "+path+" as py\ntop py n=0\ntop py n=0 granularity=lines")
	if err != nil {
		t.Fatal(err)
	}
	fn := "simulator.sensor._vectorized_ray_segment_intersection"
	functions, lines := rec.Bundles()[1]["text/plain"].(string), rec.Bundles()[2]["text/plain"].(string)
	if n := strings.Count(functions, fn); n != 1 {
		t.Errorf("top lists %s %d times, want once", fn, n)
	}
	for _, line := range []string{fn + ":219\n", fn + ":224\n", fn + ":216\n"} {
		if !strings.Contains(lines, line) {
			t.Errorf("top granularity=lines lacks %q", line)
		}
	}
}
