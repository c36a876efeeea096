package analysis_test

import (
	"math/rand"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestInfoTotalsMatchTree checks the summary against the call tree: the
// totals are the roots' totals plus the values of empty stacks.
func TestInfoTotalsMatchTree(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 100; i++ {
		p := testprof.Random(r, 1+r.Intn(40), nil)
		tree := analysis.NewTree(p)
		in := analysis.NewInfo(p, tree)
		if in.Nodes != tree.Len() || in.Samples != len(p.Samples) {
			t.Fatalf("case %d: NewInfo nodes/samples = %d/%d, want %d/%d", i, in.Nodes, in.Samples, tree.Len(), len(p.Samples))
		}
		for v := range p.ValueTypes {
			want := tree.Unrooted[v]
			for _, root := range tree.Roots {
				want += tree.Total[v][root]
			}
			if in.Totals[v] != want {
				t.Fatalf("case %d: NewInfo total[%d] = %d, want %d", i, v, in.Totals[v], want)
			}
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		unit string
		want string
	}{
		{1730000000, "nanoseconds", "1.73s"},
		{480000000, "nanoseconds", "480ms"},
		{-1500, "nanoseconds", "-1.50us"},
		{29200000000, "nanoseconds", "29.20s"},
		{10000000, "nanoseconds", "10ms"},
		{0, "nanoseconds", "0"},
		{9968700, "bytes", "9.51MB"},
		{1023, "bytes", "1023B"},
		{250, "microseconds", "250us"},
		{42, "count", "42"},
		// Each step of a ladder starts at exactly one of its unit.
		{1e9, "nanoseconds", "1s"},
		{-1e9, "nanoseconds", "-1s"},
		{1e6, "nanoseconds", "1ms"},
		{1e3, "nanoseconds", "1us"},
		{3600e9, "nanoseconds", "1hrs"},
		{1000, "milliseconds", "1s"},
		{1000, "microseconds", "1ms"},
		{1 << 10, "bytes", "1kB"},
		{1 << 20, "bytes", "1MB"},
		{1 << 30, "bytes", "1GB"},
		{1e9 - 1, "nanoseconds", "1000ms"},
	} {
		if got := analysis.FormatValue(tc.v, tc.unit); got != tc.want {
			t.Errorf("analysis.FormatValue(%d, %q) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}
