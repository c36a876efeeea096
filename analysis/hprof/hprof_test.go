package hprof

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestHprofCutoff: the xfvrp file lists fewer samples than its header total
// (hprof's cutoff); the loader keeps the listed rows and says so.
func TestHprofCutoff(t *testing.T) {
	p, err := analysis.Load(context.Background(), filepath.Join(testprof.Corpus(t), "java-hprof", "xfvrp", "java.hprof.txt"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Total(0) != 41825 || len(p.Samples) != 174 {
		t.Errorf("total %d in %d rows, want 41825 in 174", p.Total(0), len(p.Samples))
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "41825 of 42483") {
		t.Errorf("warnings = %q, want the cutoff", p.Warnings)
	}
	top := p.Stacks.At(p.Samples[0].Stack)
	if leaf := p.Frames[top[len(top)-1]].Name; leaf != "xf.xfvrp.opt.improve.XFVRPPathMove.search" || p.Value(&p.Samples[0], 0) != 8432 {
		t.Errorf("rank 1 = %s %d, want XFVRPPathMove.search 8432", leaf, p.Value(&p.Samples[0], 0))
	}
}
