package dtrace

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestDTraceExample: FlameGraph's example-dtrace.svg says "all (57,441
// samples)" for example-dtrace-stacks.txt (3,411 stack blocks).
func TestDTraceExample(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join(testprof.Corpus(t), "flamegraph", "example-dtrace-stacks.txt"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "dtrace" || p.Total(0) != 57441 || len(p.Samples) != 3411 {
		t.Errorf("Load = %s, total %d in %d blocks; want dtrace, 57441 in 3411", p.Format, p.Total(0), len(p.Samples))
	}
	leaf := p.Stacks.At(p.Samples[0].Stack)
	if got := p.Frames[leaf[len(leaf)-1]].Name; got != "genunix`kmem_cpu_reload" {
		t.Errorf("first leaf = %q, want genunix`kmem_cpu_reload", got)
	}
}
