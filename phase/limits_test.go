package phase

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

// intervalsOver counts the intervals of length step from 0 that cover 0 to
// span, one by one: the oracle for Build's count.
func intervalsOver(span, step int64) int64 {
	n := int64(0)
	for start := int64(0); start <= span; start += step {
		n++
	}
	return n
}

// fitOracle returns the shortest of 1, 2, 5, 10, 20, … ns giving at most
// limit intervals over span, found by trying them in order.
func fitOracle(span int64, limit int) int64 {
	for m := int64(1); ; m *= 10 {
		for _, f := range []int64{m, 2 * m, 5 * m} {
			if f > span || intervalsOver(span, f) <= int64(limit) {
				return f
			}
		}
	}
}

// TestBuildIntervalLimit cuts random spans into random intervals under
// random limits: Build succeeds exactly when the intervals counted one by
// one are within the limit; otherwise its *LimitError says how many it
// would take and names the shortest round interval that fits, which then
// builds.
func TestBuildIntervalLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		step := 1 + r.Int64N(1000)
		span := r.Int64N(step * 3000)
		limit := 1 + r.IntN(2000)
		tr := timedProfile(t, "0 g x", fmt.Sprintf("%d g y", span))
		d := LevelDims(tr, 9)
		v, err := Build(t.Context(), tr, d, Options{Interval: step, MaxIntervals: limit})
		n := intervalsOver(span, step)
		if n <= int64(limit) {
			if err != nil || int64(v.Len()) != n {
				t.Fatalf("trial %d: Build(span %d, step %d, limit %d) = %v intervals, %v; want %d", trial, span, step, limit, v, err, n)
			}
			continue
		}
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "intervals" || le.Need != n || le.Max != int64(limit) {
			t.Fatalf("trial %d: Build(span %d, step %d, limit %d) error = %#v, want a limit error needing %d", trial, span, step, limit, err, n)
		}
		fit := fitOracle(span, limit)
		if want := "an interval of " + time.Duration(fit).String() + " or longer fits"; !strings.Contains(err.Error(), want) {
			t.Fatalf("trial %d: error %q does not say %q", trial, err, want)
		}
		if v, err := Build(t.Context(), tr, d, Options{Interval: fit, MaxIntervals: limit}); err != nil || v.Len() > limit {
			t.Fatalf("trial %d: Build with the interval the error names (%d ns) = %v, %v", trial, fit, v, err)
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBuildRefusesBeforeAllocating checks that a refused Build allocates
// next to nothing: 1M intervals over a limit of 100k would take about
// 40 MB (what a Build that allocated first would take before failing the
// test); the refusal must stay under 1 MB.
func TestBuildRefusesBeforeAllocating(t *testing.T) {
	tr := timedProfile(t, "0 g x", "999999 g y")
	var err error
	bytes := allocated(func() { _, err = Build(t.Context(), tr, LevelDims(tr, 9), Options{Interval: 1, MaxIntervals: 100_000}) })
	var le *LimitError
	if !errors.As(err, &le) || le.Need != 1_000_000 || le.Max != 100_000 {
		t.Fatalf("Build(1M intervals, max 100k) error = %v, want a limit error", err)
	}
	if bytes > 1<<20 {
		t.Errorf("refused Build allocated %d bytes, want under 1 MB", bytes)
	}
}

func TestBuildSeriesLimit(t *testing.T) {
	tr := timedProfile(t, "0 g x", "1 g y", "2 g x")
	tr.Profile.Intervals, tr.Profile.Timed = []int{0, 1, 2}, false
	_, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{MaxIntervals: 2})
	var le *LimitError
	if !errors.As(err, &le) || le.Need != 3 || le.Max != 2 {
		t.Errorf("Build(series of 3, max 2) error = %v, want a limit error needing 3", err)
	}
	if v, err := Build(t.Context(), tr, LevelDims(tr, 9), Options{MaxIntervals: 3}); err != nil || v.Len() != 3 {
		t.Errorf("Build(series of 3, max 3) = %v, %v; want 3 intervals", v, err)
	}
}

func TestBuildOptionErrors(t *testing.T) {
	tr := timedProfile(t, "0 g x", "5 g y")
	for _, o := range []Options{{Interval: -1}, {MaxIntervals: -1}, {Count: 7}, {Value: 1}, {Value: -1}} {
		if _, err := Build(t.Context(), tr, LevelDims(tr, 9), o); err == nil {
			t.Errorf("Build(%+v) = nil error, want one", o)
		}
	}
}

// oneHot makes n intervals each counting one name of its own: under the
// paper's rule with ω = 1 every interval matches nothing seen before and
// starts a phase (n phases over n names: n² cells).
func oneHot(n int) *Vectors {
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, n)
		rows[i][i] = 1
	}
	return vectors(make([]string, n), rows)
}

func TestDetectCellLimit(t *testing.T) {
	v := oneHot(30)
	p := Params{Window: 1, Eps: 0.9, Delta: 0.9, Strict: true, MaxCells: 30 * 30}
	r, err := Detect(t.Context(), v, p, nil)
	if err != nil || len(r.Phases) != 30 {
		t.Fatalf("Detect(30 one-hot intervals, 900 cells) = %v, %v; want 30 phases", r, err)
	}
	p.MaxCells--
	_, err = Detect(t.Context(), v, p, nil)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "cells" || le.Need != 900 || le.Max != 899 {
		t.Errorf("Detect(30 one-hot intervals, 899 cells) error = %v, want a limit error needing 900", err)
	}
}

func TestSeedCellLimit(t *testing.T) {
	s := &Saved{Phases: []SavedPhase{{ID: 1}, {ID: 2}, {ID: 3}}}
	names := []string{"a", "b", "c", "d"}
	if _, err := s.Seed(names, 23); err == nil || !strings.Contains(err.Error(), "24 cells") {
		t.Errorf("Seed(3 phases × 4 names, 23 cells) error = %v, want one needing 24 cells", err)
	}
	if seed, err := s.Seed(names, 24); err != nil || len(seed) != 3 {
		t.Errorf("Seed(3 phases × 4 names, 24 cells) = %d phases, %v", len(seed), err)
	}
	v := vectors(names, [][]float64{{1, 0, 0, 0}})
	seed, _ := s.Seed(names, 0)
	if _, err := Detect(t.Context(), v, Params{Window: 1, Eps: 0.5, Delta: 0.5, MaxCells: 11}, seed); err == nil {
		t.Error("Detect(3 seed phases × 4 names, 11 cells) = nil error, want one")
	}
}

// TestSimilarityBounds checks that the bins' sums (bins × names) and the
// cells (bins²) stay within the limit by using fewer bins, and that a
// limit below one bin's names is an error.
func TestSimilarityBounds(t *testing.T) {
	v := oneHot(40) // 40 intervals over 40 names
	tests := []struct{ side, maxCells, want int }{
		{500, 0, 40},       // one bin per interval
		{500, 40 * 10, 10}, // 10 bins × 40 names
		{500, 40 * 40, 40},
		{500, 50 * 40, 40}, // bins² ≤ 2000 allows 44: capped by the intervals
		{7, 0, 7},
	}
	for _, tc := range tests {
		s, err := NewSimilarity(t.Context(), v, 3, tc.side, tc.maxCells)
		if err != nil || s.Side() != tc.want || s.Averaged() != (tc.want < 40) {
			t.Errorf("NewSimilarity(side %d, cells %d) = side %d, %v; want %d", tc.side, tc.maxCells, s.Side(), err, tc.want)
		}
	}
	_, err := NewSimilarity(t.Context(), v, 3, 500, 39)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "cells" {
		t.Errorf("NewSimilarity(40 names, 39 cells) error = %v, want a limit error", err)
	}
	for _, args := range [][3]int{{0, 500, 0}, {3, 0, 0}, {3, 500, -1}} {
		if _, err := NewSimilarity(t.Context(), v, args[0], args[1], args[2]); err == nil {
			t.Errorf("NewSimilarity(window %d, side %d, cells %d) = nil error, want one", args[0], args[1], args[2])
		}
	}
}

// zeros is an endless input that counts what was read of it.
type zeros struct{ read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += int64(len(p))
	return len(p), nil
}

func TestReadSavedByteLimit(t *testing.T) {
	z := &zeros{}
	_, err := ReadSaved(z, 1<<16)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "bytes" || le.Max != 1<<16 || !strings.Contains(err.Error(), "65536 bytes") {
		t.Fatalf("ReadSaved(endless zeros, 64 KiB) error = %v, want a byte limit error", err)
	}
	if z.read > 1<<17 {
		t.Errorf("ReadSaved read %d bytes of an endless input with a 64 KiB limit", z.read)
	}
	set := `{"params": {"window": 3}, "phases": [{"id": 1, "vector": {"x": 1}}]}`
	if _, err := ReadSaved(strings.NewReader(set), int64(len(set))); err != nil {
		t.Errorf("ReadSaved(set of exactly the limit) = %v", err)
	}
	if _, err := ReadSaved(strings.NewReader(set), int64(len(set)-1)); !errors.As(err, &le) {
		t.Errorf("ReadSaved(set one byte over the limit) error = %v, want a limit error", err)
	}
	if _, err := ReadSaved(io.LimitReader(z, 10), -1); err == nil {
		t.Error("ReadSaved(max -1) = nil error, want one")
	}
}

// TestParamsRejectNonNumbers checks that every float parameter outside
// [0, 1], NaN and the infinities included, is an error naming it, from
// Check and from Detect, which must not panic on them.
func TestParamsRejectNonNumbers(t *testing.T) {
	v := vectors([]string{"x", "y"}, [][]float64{{1, 0}, {0, 1}, {1, 1}})
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.001, 1.001, -math.MaxFloat64} {
		for _, name := range []string{"eps", "delta"} {
			p := DefaultParams()
			if name == "eps" {
				p.Eps = x
			} else {
				p.Delta = x
			}
			_, err := Detect(t.Context(), v, p, nil)
			if err == nil || !strings.Contains(err.Error(), name+"=") || p.Check() == nil {
				t.Errorf("Detect(%s=%g) error = %v, want one naming %s", name, x, err, name)
			}
		}
	}
	for _, p := range []Params{{Window: 0, Eps: 0.9, Delta: 0.9}, {Window: -3, Eps: 0.9, Delta: 0.9}, {Window: 3, Eps: 0.9, Delta: 0.9, MaxCells: -1}} {
		if _, err := Detect(t.Context(), v, p, nil); err == nil {
			t.Errorf("Detect(%+v) = nil error, want one", p)
		}
	}
	for _, x := range []float64{0, 1} { // the ends of the range are allowed
		if _, err := Detect(t.Context(), v, Params{Window: 1, Eps: x, Delta: x}, nil); err != nil {
			t.Errorf("Detect(eps = delta = %g) = %v", x, err)
		}
	}
}

// TestVectorsChecked gives Detect and NewSimilarity vectors whose parts
// disagree: each must be an error, never a panic.
func TestVectorsChecked(t *testing.T) {
	good := func() *Vectors { return vectors([]string{"x", "y"}, [][]float64{{1, 0}, {0, 2}, {1, 1}}) }
	breaks := map[string]func(v *Vectors){
		"offset not from 0":   func(v *Vectors) { v.Off[0] = 1 },
		"offsets descending":  func(v *Vectors) { v.Off[1], v.Off[2] = v.Off[2], v.Off[1] },
		"offset past the end": func(v *Vectors) { v.Off[3] = 99 },
		"name out of range":   func(v *Vectors) { v.Idx[0] = 2 },
		"negative name":       func(v *Vectors) { v.Idx[0] = -1 },
		"NaN count":           func(v *Vectors) { v.Val[1] = math.NaN() },
		"infinite count":      func(v *Vectors) { v.Val[1] = math.Inf(1) },
		"fewer intervals":     func(v *Vectors) { v.Intervals = v.Intervals[:2] },
		"fewer counts":        func(v *Vectors) { v.Val = v.Val[:1] },
	}
	for name, brk := range breaks {
		v := good()
		brk(v)
		if _, err := Detect(t.Context(), v, DefaultParams(), nil); err == nil {
			t.Errorf("%s: Detect = nil error, want one", name)
		}
		if _, err := NewSimilarity(t.Context(), v, 3, MaxCells, 0); err == nil {
			t.Errorf("%s: NewSimilarity = nil error, want one", name)
		}
	}
	seed := []*Phase{{ID: 1, Sum: make([]float64, 3)}}
	if _, err := Detect(t.Context(), good(), DefaultParams(), seed); err == nil {
		t.Error("Detect(seed over other names) = nil error, want one")
	}
}

// TestCellsNeeded: phases × names, saturating at the largest int64
// instead of overflowing, 0 when either is 0.
func TestCellsNeeded(t *testing.T) {
	for _, tc := range []struct {
		a, b int
		want int64
	}{{0, 5, 0}, {5, 0, 0}, {3, 4, 12}, {1 << 32, 1 << 31, 1<<63 - 1}, {1 << 40, 1 << 40, 1<<63 - 1}, {math.MaxInt64, 1, math.MaxInt64}, {2, math.MaxInt64 / 2, math.MaxInt64 - 1}} {
		if got := cellsNeeded(tc.a, tc.b); got != tc.want {
			t.Errorf("cellsNeeded(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
