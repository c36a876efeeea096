package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// lastBundles runs code in a fresh session with dir as its directory and
// returns the bundles of its last two commands.
func lastBundles(t *testing.T, dir, code string) (jupyter.Bundle, jupyter.Bundle) {
	t.Helper()
	rec, err := RunForTest(t, kernel.NewSession(dir, testTable()), code)
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	b := rec.Bundles()
	return b[len(b)-2], b[len(b)-1]
}

// patternsJSON returns the JSON of a patterns bundle, indented.
func patternsJSON(t *testing.T, b jupyter.Bundle) []byte {
	t.Helper()
	data, err := json.MarshalIndent(b["application/json"], "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// TestPatternRecordings: each of the notebook's six recordings (Chrome
// traces, counts from events) shows exactly the pattern it is named after,
// in the table, the JSON and the picture's badge (golden JSON and SVG).
func TestPatternRecordings(t *testing.T) {
	dir, err := filepath.Abs("../../notebooks/data/blueprint")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "?-*.json"))
	if len(files) != 6 {
		t.Fatalf("%d recordings in %s, want 6 (A to F)", len(files), dir)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		letter := name[:1]
		t.Run(name, func(t *testing.T) {
			pats, pic := lastBundles(t, dir, "load "+filepath.Base(f)+" as p\npatterns\nblueprint")
			data := patternsJSON(t, pats)
			golden.Check(t, filepath.Join("testdata", "blueprint", name+".json"), data)
			var doc struct {
				Counts   string
				Patterns []struct{ Pattern string }
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Counts != "events" || len(doc.Patterns) != 1 || doc.Patterns[0].Pattern != letter {
				t.Errorf("patterns %s, want exactly %s from events", data, letter)
			}
			svg, _ := kerneltest.SVG(pic)
			golden.Check(t, filepath.Join("testdata", "blueprint", name+".svg"), []byte(svg))
			if !strings.Contains(svg, ">"+letter+"</text>") {
				t.Errorf("the picture has no %s badge", letter)
			}
		})
	}
}

// TestBlueprintSources: the source of counts is named in the picture and
// the JSON; a profile without any is refused with what would give them.
func TestBlueprintSources(t *testing.T) {
	dir := t.TempDir()
	cg := "events: Ir\nfn=main\n1 5\ncfn=f\ncalls=30 1\n1 300\nfn=f\n1 300\n"
	if err := os.WriteFile(filepath.Join(dir, "cg.out"), []byte(cg), 0o644); err != nil {
		t.Fatal(err)
	}
	heap, err := filepath.Abs("../../analysis/testdata/heap.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ load, counts, legend string }{
		{"cg.out", "callgrind", "width: calls from callgrind"},
		{heap, "objects", "width: objects from objects"},
		{"demo:phasedemo", "", "width: no call counts, every box as wide (entries recovered from samples are lower bounds"},
		{"demo:phasedemo counts=recovered", "stack-diffs", "width: entries recovered from samples (lower bounds)"},
	} {
		load, opts, _ := strings.Cut(c.load, " ")
		pats, pic := lastBundles(t, dir, "load "+load+" as p\npatterns "+opts+"\nblueprint "+opts)
		var doc struct{ Counts string }
		if err := json.Unmarshal(patternsJSON(t, pats), &doc); err != nil || doc.Counts != c.counts {
			t.Errorf("%s: patterns counts %q, %v; want %s", c.load, doc.Counts, err, c.counts)
		}
		if svg, _ := kerneltest.SVG(pic); !strings.Contains(svg, c.legend) {
			t.Errorf("%s: the picture lacks %q", c.load, c.legend)
		}
	}
	for _, cmd := range []string{"blueprint", "patterns"} {
		_, err := RunForTest(t, nil, "load demo:profvis-toy as toy\n"+cmd)
		if err == nil || !strings.Contains(err.Error(), cmd+" toy: no call counts: a sampled profile without times") ||
			!strings.Contains(err.Error(), "valgrind --tool=callgrind") {
			t.Errorf("%s of a profile without counts: %v", cmd, err)
		}
	}
}

// TestBlueprintMutating: a mutation file shades the boxes grey (mutates)
// and yellow (pure); a file with other entities is refused.
func TestBlueprintMutating(t *testing.T) {
	dir, err := filepath.Abs("../../notebooks/data/blueprint")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, bad := write("mut.txt", "mutates function a\npure function b\n"), write("bad.txt", "JDK class java.*\n")
	_, pic := lastBundles(t, dir, "load B-indirection.json\nblueprint mutating="+good)
	svg, _ := kerneltest.SVG(pic)
	if !strings.Contains(svg, `fill="#a9a9a9"`) || !strings.Contains(svg, `fill="#f6dd6b"`) {
		t.Errorf("blueprint mutating=: no grey or no yellow box")
	}
	_, err = RunForTest(t, kernel.NewSession(dir, testTable()), "load B-indirection.json\nblueprint mutating="+bad)
	if err == nil || !strings.Contains(err.Error(), `entity "JDK": a mutation file has the entities mutates and pure only`) {
		t.Errorf("blueprint mutating=bad.txt: %v", err)
	}
	_, err = RunForTest(t, kernel.NewSession(dir, testTable()), "load B-indirection.json\nblueprint mutating="+tmp)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("blueprint mutating=DIR: %v", err)
	}
}

// TestBlueprintOptions: height= and width= set the scales, named in the
// legend; bad values are usage errors.
func TestBlueprintOptions(t *testing.T) {
	dir, err := filepath.Abs("../../notebooks/data/blueprint")
	if err != nil {
		t.Fatal(err)
	}
	_, pic := lastBundles(t, dir, "load D-multiple.json\nblueprint height=2ms width=100")
	if svg, _ := kerneltest.SVG(pic); !strings.Contains(svg, "(200 px = 2ms)") || !strings.Contains(svg, "(120 px = 100)") {
		t.Errorf("blueprint height=2ms width=100: legend lacks the scales")
	}
	for _, c := range []struct{ code, want string }{
		{"blueprint height=tall", "blueprint: height=tall: not a positive amount of nanoseconds"},
		{"blueprint width=-3", "blueprint: width=-3: not a count"},
		{"patterns tolerance=2", "patterns: tolerance=2: want a fraction from 0 up to 1"},
		{"patterns ratio=1", "patterns: ratio=1: want a factor above 1"},
		{"patterns n=-1", "patterns: n=-1: write a number of patterns"},
	} {
		_, err := RunForTest(t, kernel.NewSession(dir, testTable()), "load D-multiple.json\n"+c.code)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.code, err, c.want)
		}
	}
}
