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
		if got := fmt.Sprint(v.Samples); got != "[3 1 0 2]" {
			t.Errorf("Build(count=%s) samples per interval = %s, want [3 1 0 2]", tc.count, got)
		}
	}
}

// TestBuildEntriesReturns: a frame is entered when a thread's stack
// reaches it anew: a stack sampled twice in a row is one entry, and
// coming back up to a frame already on the stack enters nothing, also
// when that frame is the first node of the tree.
func TestBuildEntriesReturns(t *testing.T) {
	tr := timedProfile(t, "0 g m", "1 g m;a", "2 g m;a", "3 g m", "4 g m;b")
	v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{Interval: 10, Count: CountEntries})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(v), "[0,10) a=1 b=1 m=1\n"; got != want {
		t.Errorf("Build(count=entries) = %q, want %q", got, want)
	}
	// From b back to a: a is entered again (b is no descendant of a,
	// though it comes right after a's subtree).
	tr = timedProfile(t, "0 g m;a;x", "1 g m;b", "2 g m;a")
	if v, err = Build(t.Context(), tr, LevelDims(tr, 9), Options{Interval: 10, Count: CountEntries}); err != nil {
		t.Fatal(err)
	}
	if got, want := dump(v), "[0,10) a=2 b=1 m=1 x=1\n"; got != want {
		t.Errorf("Build(count=entries) = %q, want %q", got, want)
	}
}

// TestBuildIntervalEdges: intervals are half open, [start, end): a sample
// at an interval's end is in the next one.
func TestBuildIntervalEdges(t *testing.T) {
	tr := timedProfile(t, "0 g x", "10 g y", "20 g x")
	v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{Interval: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(v), "[0,10) x=1\n[10,20) y=1\n[20,30) x=1\n"; got != want {
		t.Errorf("Build = %q, want %q", got, want)
	}
}

// TestBuildSeriesLengths: a series has one interval per profile, the
// profiles without samples included, whether Intervals ends with
// len(Samples) or not.
func TestBuildSeriesLengths(t *testing.T) {
	tests := []struct {
		intervals []int
		names     []string
		samples   int
		want      string
	}{
		{[]int{0, 1, 3}, []string{"p0", "p1", "p2"}, 3, "[0,1) x=1\n[1,2) y=3\n[2,3)\n"}, // the last profile is empty
		{[]int{0, 1, 3}, nil, 3, "[0,1) x=1\n[1,2) y=3\n"},                               // 3 = len(Samples) ends the list
		{[]int{0, 1}, nil, 3, "[0,1) x=1\n[1,2) y=3\n"},
		{[]int{0}, []string{"p0"}, 0, "[0,1)\n"}, // one profile, no samples
		{[]int{0}, nil, 0, "[0,1)\n"},
	}
	for _, tc := range tests {
		b := analysis.NewBuilder("series", analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
		x := b.Stack([]int32{b.Frame(analysis.Frame{Name: "x"})})
		y := b.Stack([]int32{b.Frame(analysis.Frame{Name: "y"})})
		for i, st := range []int32{x, y, y}[:tc.samples] {
			b.Add(st, []int64{int64(1 + i%2)}, 0, false, "", nil)
		}
		p := b.Finish()
		p.Intervals, p.IntervalNames = tc.intervals, tc.names
		tr := analysis.NewTree(p)
		v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := dump(v); got != tc.want {
			t.Errorf("Build(series %v, names %v) = %q, want %q", tc.intervals, tc.names, got, tc.want)
		}
	}
}

// TestBuildLooksAtContext: counting entries, Build looks at its context at
// least once per checkEvery stack nodes it visits.
func TestBuildLooksAtContext(t *testing.T) {
	const samples, depth = 1 << 12, 1 << 9 // 2^21 nodes entered: two looks at least
	b := analysis.NewBuilder("deep", analysis.ValueType{Type: "samples", Unit: "count"})
	var stacks [2]int32
	for k := range stacks {
		ids := make([]int32, depth)
		for i := range ids {
			ids[i] = b.Frame(analysis.Frame{Name: fmt.Sprintf("f%d.%d", k, i)})
		}
		stacks[k] = b.Stack(ids)
	}
	for i := range samples {
		b.Add(stacks[i%2], []int64{1}, int64(i), true, "g", nil) // each sample enters its whole stack
	}
	tr := analysis.NewTree(b.Finish())
	ctx := newCancelAfter(1 << 40)
	if _, err := Build(ctx, tr, LevelDims(tr, 9), Options{Interval: 1 << 20, Count: CountEntries}); err != nil {
		t.Fatal(err)
	}
	if got, want := ctx.calls.Load(), int64(samples*depth/checkEvery); got < want {
		t.Errorf("Build looked at its context %d times over %d nodes, want at least %d", got, samples*depth, want)
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
