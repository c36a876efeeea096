package pprof

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// pprofFact is one MANIFEST.md row for a pprof-parsable file, whose facts
// were computed with the pprof library and go tool pprof.
type pprofFact struct {
	path    string
	types   []string // "type/unit"
	records int
	sums    []int64
	def     string // go tool pprof's default sample type, "" when not stated
}

var pprofDefaultType = regexp.MustCompile(`\(default type ([A-Za-z_]+)\)`)

var pprofFactRow = regexp.MustCompile("^\\| `([^`]*)` .*sample types \\[([^]]*)\\]; ([0-9]+) Sample records; value sums \\[([^]]*)\\]")

func pprofFacts(t *testing.T, dir string) []pprofFact {
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []pprofFact
	for _, line := range strings.Split(string(data), "\n") {
		m := pprofFactRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := pprofFact{path: m[1], types: strings.Split(m[2], ",")}
		f.records, _ = strconv.Atoi(m[3])
		for _, s := range strings.Fields(m[4]) {
			v, _ := strconv.ParseInt(s, 10, 64)
			f.sums = append(f.sums, v)
		}
		if d := pprofDefaultType.FindStringSubmatch(line); d != nil {
			f.def = d[1]
		}
		out = append(out, f)
	}
	return out
}

// TestPprofCorpusFacts loads every pprof file of the corpus by content and
// checks its value types, sample count and value sums against MANIFEST.md.
func TestPprofCorpusFacts(t *testing.T) {
	dir := testprof.Corpus(t)
	facts := pprofFacts(t, dir)
	if len(facts) < 40 {
		t.Fatalf("found %d pprof rows in MANIFEST.md, want at least 40", len(facts))
	}
	for _, f := range facts {
		t.Run(f.path, func(t *testing.T) {
			p, err := analysis.Load(context.Background(), filepath.Join(dir, f.path), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != "pprof" {
				t.Errorf("format = %q, want pprof", p.Format)
			}
			var types []string
			for _, vt := range p.ValueTypes {
				types = append(types, vt.Type+"/"+vt.Unit)
			}
			if strings.Join(types, ",") != strings.Join(f.types, ",") {
				t.Errorf("value types = %v, want %v", types, f.types)
			}
			if len(p.Samples) != f.records {
				t.Errorf("samples = %d, want %d", len(p.Samples), f.records)
			}
			for v, want := range f.sums {
				if v < len(p.ValueTypes) && p.Total(v) != want {
					t.Errorf("total %s = %d, want %d", types[v], p.Total(v), want)
				}
			}
			if f.def != "" && p.ValueTypes[p.DefaultValue].Type != f.def {
				t.Errorf("default value = %s, want %s", p.ValueTypes[p.DefaultValue].Type, f.def)
			}
			tr := analysis.NewTree(p)
			var sum int64
			for _, r := range tr.Roots {
				sum += tr.Total[p.DefaultValue][r]
			}
			if sum+tr.Unrooted[p.DefaultValue] != p.Total(p.DefaultValue) {
				t.Errorf("tree roots sum %d + unrooted %d != total %d", sum, tr.Unrooted[p.DefaultValue], p.Total(p.DefaultValue))
			}
		})
	}
}
