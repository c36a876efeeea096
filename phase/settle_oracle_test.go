package phase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// cutScore is the summed cosines of cutting intervals lo to hi-1 at c:
// those before c to a, the others to b.
func cutScore(v *Vectors, lo, hi, c int, a, b *Phase) float64 {
	var s float64
	for i := lo; i < hi; i++ {
		if i < c {
			s += cosineOf(a.Sum, v.Dense(i))
		} else {
			s += cosineOf(b.Sum, v.Dense(i))
		}
	}
	return s
}

// randomPhases makes n random rows over d names (some idle) and two
// phases with random sums.
func randomPhases(r *rand.Rand, n, d int) (*Vectors, *Phase, *Phase) {
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, d)
		if r.IntN(6) == 0 {
			continue // idle
		}
		for j := range rows[i] {
			if r.IntN(2) == 0 {
				rows[i][j] = float64(r.IntN(4))
			}
		}
	}
	ph := func(id int) *Phase {
		p := &Phase{ID: id, Sum: make([]float64, d)}
		for j := range p.Sum {
			p.Sum[j] = float64(r.IntN(5))
		}
		return p
	}
	return vectors(make([]string, d), rows), ph(1), ph(2)
}

// TestCutAtBest: a stretch of transitions is cut where the summed cosines
// are highest, the earliest cut among the best; everything goes to the
// one neighbour there is when the other is missing. Checked against every
// cut on random stretches.
func TestCutAtBest(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 500 {
		n := 1 + r.IntN(8)
		v, a, b := randomPhases(r, n+2, 1+r.IntN(4))
		lo, hi := 1, 1+n
		want := lo
		for c := lo; c <= hi; c++ {
			if cutScore(v, lo, hi, c, a, b) > cutScore(v, lo, hi, want, a, b)+tieTolerance {
				want = c
			}
		}
		if got := cutAt(v, lo, hi, a, b); got != want {
			t.Fatalf("trial %d: cutAt = %d, want %d (scores by cut: %v)", trial, got, want, scores(v, lo, hi, a, b))
		}
	}
	v, a, b := randomPhases(r, 5, 3)
	if cutAt(v, 1, 4, nil, b) != 1 || cutAt(v, 1, 4, a, nil) != 4 {
		t.Error("cutAt with one neighbour missing: want all to the other")
	}
}

func scores(v *Vectors, lo, hi int, a, b *Phase) string {
	var out []string
	for c := lo; c <= hi; c++ {
		out = append(out, fmt.Sprintf("%d:%.3f", c, cutScore(v, lo, hi, c, a, b)))
	}
	return fmt.Sprint(out)
}

// TestRecutBest: a switch between two non-empty phases moves, within ω-1
// intervals either side and keeping one interval of each run, to the cut
// whose summed cosines are highest; on a tie the detector's own, else the
// nearest before it, else the nearest after it. Checked against every cut
// on random pairs of runs.
func TestRecutBest(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 500 {
		na, nb, w := 1+r.IntN(6), 1+r.IntN(6), 1+r.IntN(4)
		v, a, b := randomPhases(r, na+nb, 1+r.IntN(4))
		res := &Result{Params: Params{Window: w}, Of: make([]int32, na+nb)}
		for i := range res.Of {
			res.Of[i] = 1
			if i >= na {
				res.Of[i] = 2
			}
		}
		lo, hi := max(na-(w-1), 1), min(na+(w-1), na+nb-1)
		// Candidates from the detector's own outwards, earlier ones first:
		// a later one must score higher to be taken.
		want := na
		var order []int
		for c := na - 1; c >= lo; c-- {
			order = append(order, c)
		}
		for c := na + 1; c <= hi; c++ {
			order = append(order, c)
		}
		for _, c := range order {
			if cutScore(v, lo, hi, c, a, b) > cutScore(v, lo, hi, want, a, b)+tieTolerance {
				want = c
			}
		}
		recut(v, res, map[int32]*Phase{1: a, 2: b})
		cut := 0
		for cut < len(res.Of) && res.Of[cut] == 1 {
			cut++
		}
		for i := cut; i < len(res.Of); i++ {
			if res.Of[i] != 2 {
				t.Fatalf("trial %d: recut left %v, want one switch", trial, res.Of)
			}
		}
		if cut != want {
			t.Fatalf("trial %d (runs of %d and %d, ω %d): recut switches at %d, want %d (scores by cut: %v)", trial, na, nb, w, cut, want, scores(v, lo, hi, a, b))
		}
	}
}

// TestTransitionsAtTheEdges: a stretch of transitions next to the first
// interval or the last goes by the intervals' counts when there is a
// neighbour on both sides, and wholly to the one neighbour there is.
func TestTransitionsAtTheEdges(t *testing.T) {
	a, b, c := []float64{5, 0, 0}, []float64{0, 5, 0}, []float64{0, 0, 5}
	tests := []struct {
		rows [][]float64
		of   []int32
		want string
	}{
		// Interval 1 (phase 2, one interval) lies between interval 0
		// (phase 1, which recurs) and phase 3; its counts are a's.
		{[][]float64{a, a, c, c, c, a, a}, []int32{1, 2, 3, 3, 3, 1, 1}, "[1 1 3 3 3 1 1]"},
		// The last interval (phase 3, one interval) has no right
		// neighbour: it goes to phase 2 before it, though its counts are
		// phase 1's.
		{[][]float64{a, a, a, b, b, b, a}, []int32{1, 1, 1, 2, 2, 2, 3}, "[1 1 1 2 2 2 2]"},
	}
	for _, tc := range tests {
		v := vectors([]string{"x", "y", "z"}, tc.rows)
		r := &Result{Params: Params{Window: 3}, Of: append([]int32(nil), tc.of...)}
		byID := map[int32]*Phase{}
		for _, id := range tc.of {
			if byID[id] == nil {
				byID[id] = &Phase{ID: int(id), Sum: make([]float64, 3)}
				r.Phases = append(r.Phases, byID[id])
			}
			for i, x := range tc.rows[slicesIndex(tc.of, id)] {
				byID[id].Sum[i] += x
			}
		}
		resum(v, r)
		mergeTransitions(v, r, byID)
		if got := fmt.Sprint(r.Of); got != tc.want {
			t.Errorf("mergeTransitions(%v) = %s, want %s", tc.of, got, tc.want)
		}
	}
}

func slicesIndex(of []int32, id int32) int {
	for i, x := range of {
		if x == id {
			return i
		}
	}
	return -1
}

// TestMergeSameLifted: a phase this run made joins an earlier one whose
// vector matches its own above δ, the cosine corrected for sampling noise
// when the recording's spread is given: (3, 1) and (3, 2) are at 0.96
// measured, and below δ = 0.97 only without the correction (each phase of
// 20 samples, spread 5: × 1.2).
func TestMergeSameLifted(t *testing.T) {
	for _, spread := range []float64{0, 5} {
		a := &Phase{ID: 1, Sum: []float64{3, 1}, samples: 20}
		b := &Phase{ID: 2, Sum: []float64{3, 2}, samples: 20}
		a.ref, b.ref = a.Sum, b.Sum
		r := &Result{Params: Params{Window: 3, Eps: 0.9, Delta: 0.97, Spread: spread}, Of: []int32{1, 1, 1, 2, 2, 2}, Phases: []*Phase{a, b}}
		if err := mergeSame(r, map[int32]*Phase{1: a, 2: b}, &pacer{ctx: t.Context()}); err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{true: "[1 1 1 1 1 1]", false: "[1 1 1 2 2 2]"}[spread > 0]
		if got := fmt.Sprint(r.Of); got != want {
			t.Errorf("spread %g: mergeSame = %s, want %s", spread, got, want)
		}
	}
}

// TestSimilaritySmall: a similarity of one bin is the run's mean window
// similarity; limits that leave room for one bin give one; a run of no
// intervals gives an empty matrix, not an error.
func TestSimilaritySmall(t *testing.T) {
	v := vectors([]string{"x", "y"}, [][]float64{{1, 0}, {1, 0}, {0, 1}, {0, 1}})
	full, err := NewSimilarity(t.Context(), v, 1, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mean float64
	for a := range 4 {
		for b := range 4 {
			mean += full.At(a, b) / 16
		}
	}
	for _, tc := range []struct{ side, maxCells int }{{1, 0}, {4, 2}} {
		s, err := NewSimilarity(t.Context(), v, 1, tc.side, tc.maxCells)
		if err != nil || s.Side() != 1 || math.Abs(s.At(0, 0)-mean) > 1e-12 {
			t.Errorf("NewSimilarity(side %d, max cells %d) = %v, %v; want one bin of %g", tc.side, tc.maxCells, s, err, mean)
		}
	}
	empty := &Vectors{Names: []string{"x"}, Off: []int{0}}
	if s, err := NewSimilarity(t.Context(), empty, 3, 100, 0); err != nil || s.Side() != 0 {
		t.Errorf("NewSimilarity(no intervals) = %v, %v; want an empty matrix", s, err)
	}
}

// TestSimilarityLooksAtContext: NewSimilarity looks at its context at
// least once per checkEvery entries of the vectors it reads.
func TestSimilarityLooksAtContext(t *testing.T) {
	const n, d = 1 << 15, 64
	v := &Vectors{Names: make([]string, d), Off: []int{0}}
	row := make([]float64, d)
	for k := range row {
		row[k] = float64(k%3 + 1)
	}
	for i := range n {
		v.Append(Interval{int64(i), int64(i + 1)}, 1, row)
	}
	ctx := newCancelAfter(1 << 40)
	if _, err := NewSimilarity(ctx, v, 3, 1, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := ctx.calls.Load(), int64(n*d/checkEvery); got < want {
		t.Errorf("NewSimilarity looked at its context %d times over %d entries, want at least %d", got, n*d, want)
	}
}

// TestVectorsCheck: vectors with no intervals at all are fine (and
// detect nothing); offsets out of order are refused naming the interval
// and its offsets.
func TestVectorsCheck(t *testing.T) {
	if err := (&Vectors{Names: []string{"x"}}).check(); err != nil {
		t.Errorf("no intervals: %v, want none", err)
	}
	if r, err := Detect(t.Context(), &Vectors{Names: []string{"x"}}, DefaultParams(), nil); err != nil || len(r.Of) != 0 {
		t.Errorf("Detect(no intervals) = %v, %v; want an empty result", r, err)
	}
	v := vectors([]string{"x", "y"}, [][]float64{{1, 2}, {3, 0}})
	v.Off[1] = 4
	if err := v.check(); err == nil || !strings.Contains(err.Error(), "interval 1: offsets 4 > 3") {
		t.Errorf("check() = %v, want an error saying interval 1: offsets 4 > 3", err)
	}
}
