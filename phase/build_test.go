package phase

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// timedProfile builds a profile from "time thread a;b;c" lines (stacks
// root first, one sample of value 1 each).
func timedProfile(t *testing.T, lines ...string) *analysis.Tree {
	t.Helper()
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	for _, l := range lines {
		var at int64
		var thread, stack string
		if _, err := fmt.Sscan(l, &at, &thread, &stack); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		var ids []int32
		for _, f := range strings.Split(stack, ";") {
			ids = append(ids, b.Frame(analysis.Frame{Name: f}))
		}
		b.Add(b.Stack(ids), []int64{1}, at, true, thread, nil)
	}
	return analysis.NewTree(b.Finish())
}

// dump renders vectors as "[start,end) name=count …" lines.
func dump(v *Vectors) string {
	var b strings.Builder
	for i := range v.Len() {
		fmt.Fprintf(&b, "[%d,%d)", v.Intervals[i].Start, v.Intervals[i].End)
		for k := v.Off[i]; k < v.Off[i+1]; k++ {
			fmt.Fprintf(&b, " %s=%g", v.Names[v.Idx[k]], v.Val[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestBuildCounts(t *testing.T) {
	// Thread g1 runs m → a → x, then m → a → y, then m → b; g2 runs m → a → x.
	// A gap from 20 to 30 gives an empty interval; full names (level 9).
	tr := timedProfile(t,
		"0 g1 m;a;x", "1 g2 m;a;x", "5 g1 m;a;y", "12 g1 m;a;y", "35 g1 m;b", "38 g2 m;a;x")
	tests := []struct {
		count Count
		want  string
	}{
		{CountSelf, "[0,10) x=2 y=1\n[10,20) y=1\n[20,30)\n[30,40) b=1 x=1\n"},
		{CountTotal, "[0,10) a=3 m=3 x=2 y=1\n[10,20) a=1 m=1 y=1\n[20,30)\n[30,40) a=1 b=1 m=2 x=1\n"},
		// Entries: each thread's first sample enters its whole stack; then
		// y below a, nothing (same stack), b below m, and g2's same stack.
		{CountEntries, "[0,10) a=2 m=2 x=2 y=1\n[10,20)\n[20,30)\n[30,40) b=1\n"},
	}
	for _, tc := range tests {
		v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{Interval: 10, Count: tc.count})
		if err != nil {
			t.Fatal(err)
		}
		if got := dump(v); got != tc.want {
			t.Errorf("Build(count=%s) =\n%s\nwant\n%s", tc.count, got, tc.want)
		}
	}
}

func TestBuildLevelMergesNames(t *testing.T) {
	tr := timedProfile(t, "0 g lib.A.f", "1 g lib.B.g", "2 g other.h")
	v, err := Build(t.Context(), tr, LevelDims(tr, 1), Options{Interval: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(v), "[0,100) lib=2 other=1\n"; got != want {
		t.Errorf("Build at level 1 = %q, want %q", got, want)
	}
}

func TestBuildSeriesAndErrors(t *testing.T) {
	b := analysis.NewBuilder("series", analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	x := b.Stack([]int32{b.Frame(analysis.Frame{Name: "x"})})
	y := b.Stack([]int32{b.Frame(analysis.Frame{Name: "y"})})
	b.Add(x, []int64{5}, 0, false, "", nil)
	b.Add(y, []int64{7}, 0, false, "", nil)
	b.Add(y, []int64{3}, 0, false, "", nil)
	p := b.Finish()
	untimed := analysis.NewTree(p)
	if _, err := Build(t.Context(), untimed, LevelDims(untimed, 9), Options{}); err != ErrUntimed {
		t.Errorf("Build(untimed single profile) error = %v, want ErrUntimed", err)
	}
	p.Intervals, p.IntervalNames = []int{0, 1}, []string{"p0", "p1"}
	tr := analysis.NewTree(p)
	v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(v), "[0,1) x=5\n[1,2) y=10\n"; got != want || !v.Series {
		t.Errorf("Build(series) = %q (series %v), want %q", got, v.Series, want)
	}
	if _, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{Count: CountEntries}); err == nil {
		t.Error("Build(series, count=entries) = nil error, want one")
	}
}

func TestRoundInterval(t *testing.T) {
	for in, want := range map[int64]int64{0: 1, 1: 1, 3: 2, 4: 5, 40_000_000: 50_000_000, 60_000_000: 50_000_000, 80_000_000: 100_000_000, 140: 100} {
		if got := RoundInterval(in); got != want {
			t.Errorf("RoundInterval(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestParseCount(t *testing.T) {
	for _, c := range []Count{CountSelf, CountTotal, CountEntries} {
		if got, err := ParseCount(c.String()); err != nil || got != c {
			t.Errorf("ParseCount(%q) = %v, %v", c.String(), got, err)
		}
	}
	if _, err := ParseCount("calls"); err == nil {
		t.Error(`ParseCount("calls") = nil error`)
	}
}
