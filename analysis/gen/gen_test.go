package gen

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/proflens/proflens/analysis"
)

var out = flag.String("gen.out", "", "write the Default() profile to this file (a gzipped pprof) and stop")

// TestGenerate writes the benchmark profile when -gen.out is set:
// go test ./analysis/gen -run TestGenerate -gen.out=/tmp/big.pb.gz
func TestGenerate(t *testing.T) {
	if *out == "" {
		t.Skip("set -gen.out=FILE to write the benchmark profile")
	}
	f, err := os.Create(*out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(f, Default()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestShape checks a scaled-down profile against its Config: sample count,
// distinct stacks, mean depth within 15%, most functions used, and that
// the same seed gives the same bytes while another seed does not.
func TestShape(t *testing.T) {
	c := Config{Samples: 50_000, Stacks: 6_000, Functions: 2_500, MeanDepth: 40, Seed: 7}
	p := Profile(c)
	if len(p.Samples) != c.Samples {
		t.Errorf("samples = %d, want %d", len(p.Samples), c.Samples)
	}
	if p.Stacks.Len() != c.Stacks {
		t.Errorf("distinct stacks = %d, want %d", p.Stacks.Len(), c.Stacks)
	}
	used := map[int32]bool{}
	depth := 0
	for _, s := range p.Samples {
		st := p.Stacks.At(s.Stack)
		depth += len(st)
		for _, f := range st {
			used[f] = true
		}
	}
	mean := float64(depth) / float64(len(p.Samples))
	if mean < 0.85*float64(c.MeanDepth) || mean > 1.15*float64(c.MeanDepth) {
		t.Errorf("mean depth = %.1f, want %d ± 15%%", mean, c.MeanDepth)
	}
	if len(used) < c.Functions*7/10 {
		t.Errorf("functions used = %d, want at least 70%% of %d", len(used), c.Functions)
	}
	if got := analysis.NewTree(p).Len(); got < c.Stacks {
		t.Errorf("call tree nodes = %d, want at least %d", got, c.Stacks)
	}
	var a, b, d bytes.Buffer
	small := Config{Samples: 2000, Stacks: 300, Functions: 400, MeanDepth: 10, Seed: 3}
	Write(&a, small)
	Write(&b, small)
	small.Seed = 4
	Write(&d, small)
	if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), d.Bytes()) {
		t.Errorf("Write is not a deterministic function of the config")
	}
	q, err := analysis.Parse(context.Background(), "gen.pb.gz", a.Bytes(), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Total(1) != 2000*period || q.Lang != analysis.LangGo {
		t.Errorf("reloaded total = %d lang %d, want %d LangGo", q.Total(1), q.Lang, 2000*period)
	}
}
