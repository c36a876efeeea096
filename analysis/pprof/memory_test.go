package pprof

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/internal/testtool"
)

// TestHeapDeltasAgainstPprof: the memory events of a series of heap
// profiles (analysis.MemoryEvents) are, per interval and allocating
// function, the objects `go tool pprof -top -sample_index=alloc_objects
// -diff_base=PREVIOUS CURRENT` counts flat, and those freed are that
// count less pprof's of inuse_objects, over parca's ten heap profiles of
// one program (notebooks/data/heap-series, see heapSeries).
func TestHeapDeltasAgainstPprof(t *testing.T) {
	testtool.Need(t, "go")
	glob := filepath.Join(heapSeries(t), "*.pb.gz")
	files, _ := filepath.Glob(glob)
	p, err := analysis.LoadSeries(context.Background(), glob, analysis.LoadOptions{})
	if err != nil || len(files) != 10 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	src, ms := analysis.MemoryEvents(p)
	if src != analysis.MemoryHeapDeltas {
		t.Fatalf("source %q, want heap-deltas", src)
	}
	// The series orders the files by their profiles' times, which are
	// their names' order here.
	v := p.ValueIndex("alloc_objects")
	checked := 0
	for i := 1; i < len(files); i++ {
		at := p.Samples[p.Intervals[i]].Time
		got, freed := map[string]int64{}, map[string]int64{}
		for _, m := range ms {
			if m.Time == at {
				st := p.Stacks.At(m.Stack)
				if leaf := p.Frames[st[len(st)-1]].Name; m.Free {
					freed[leaf] += m.Count
				} else {
					got[leaf] += m.Count
				}
			}
		}
		want := runPprofTop(t, files[i], v, "count", "-diff_base="+files[i-1])
		inuse := runPprofTop(t, files[i], p.ValueIndex("inuse_objects"), "count", "-diff_base="+files[i-1])
		names := map[string]bool{}
		for name := range want.rows {
			names[name] = true
		}
		for name := range inuse.rows {
			names[name] = true
		}
		for name := range names {
			w := want.rows[name]
			if f := w[0] - inuse.rows[name][0]; freed[name] != f {
				t.Errorf("interval %d: %s freed %d objects; pprof: %d allocated, %d more in use", i, name, freed[name], w[0], inuse.rows[name][0])
			}
		}
		for name, w := range want.rows {
			if w[0] < 0 {
				t.Errorf("interval %d: pprof counts %d objects for %s: a stack that allocated fewer", i, w[0], name)
			}
			if got[name] != max(w[0], 0) {
				t.Errorf("interval %d: %s allocated %d objects, pprof %d", i, name, got[name], w[0])
			}
			checked += int(w[0])
		}
		for name, n := range got {
			if _, ok := want.rows[name]; !ok && n != 0 {
				t.Errorf("interval %d: %s allocated %d objects, pprof has no row", i, name, n)
			}
		}
	}
	if checked == 0 {
		t.Error("the series allocates nothing between its profiles: the oracle checks no row")
	}
}

// heapSeries copies the ten heap profiles of notebooks/data/heap-series
// into a new directory under their names there, reading the three that
// folder links to from their homes in testdata, not through the links
// (a copy of the module without its symbolic links still has them).
func heapSeries(t *testing.T) string {
	t.Helper()
	const dir = "../../notebooks/data/heap-series"
	files := map[string]string{
		"1644509272337470000.pb.gz": "../testdata/heap.pb.gz",
		"1644509293338714000.pb.gz": "testdata/heap-8.pb.gz",
		"1644509296350592000.pb.gz": "testdata/heap-9.pb.gz",
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, linked := files[e.Name()]; !linked && e.Type().IsRegular() {
			files[e.Name()] = filepath.Join(dir, e.Name())
		}
	}
	out := t.TempDir()
	for name, from := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
