package phase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// detectRaw runs the windowed detector alone, without Detect's settling:
// what the literal transcription (detectSlow) states.
func detectRaw(t *testing.T, v *Vectors, p Params, seed []*Phase) *Result {
	t.Helper()
	d, err := detect(t.Context(), v, p, seed)
	if err != nil {
		t.Fatal(err)
	}
	return d.r
}

// vectors makes Vectors from dense rows (one interval of 1 ns each).
func vectors(names []string, rows [][]float64) *Vectors {
	v := &Vectors{Names: names, Off: []int{0}}
	for i, r := range rows {
		v.Append(Interval{int64(i), int64(i + 1)}, 1, r)
	}
	return v
}

// detectSlow transcribes seed 003 §4 literally: W_i recomputed from scratch
// and normalized, phase vectors recomputed as normalized sums, dot products
// of unit vectors; plus, unless p.Strict, the provisional new phases and
// retired transition phases of Params.Strict. It is the oracle for Detect.
func detectSlow(rows [][]float64, p Params) []int32 {
	d := len(rows[0])
	var sums [][]float64
	var ids []int32
	var count []int
	retired := map[int]bool{}
	const none, empty = -1, -2
	cur, born, next, out := none, 0, int32(1), make([]int32, len(rows))
	window := func(from, to int) []float64 { // rows[from..to] summed
		w := make([]float64, d)
		for j := max(0, from); j <= to; j++ {
			for k, x := range rows[j] {
				w[k] += x
			}
		}
		return w
	}
	best := func(w []float64, skip int) (int, float64) {
		t, st := -1, -1.0
		for k := range sums {
			if s := dot(normalized(sums[k]), w); k != skip && !retired[k] && s > st+tieTolerance {
				t, st = k, s
			}
		}
		return t, st
	}
	for i := range rows {
		w := normalized(window(i-p.Window+1, i))
		prev := cur
		t, st := -1, -1.0
		if !p.Strict && cur >= 0 && cur == len(sums)-1 && i-born < p.Window {
			t, st = best(w, cur)
		}
		switch {
		case dot(w, w) == 0:
			cur = empty
		case st > p.Delta:
			cur = t // a provisional phase yields to an earlier one
		case cur >= 0 && dot(normalized(sums[cur]), w) > p.Eps:
		default:
			if t, st := best(w, -1); st > p.Delta {
				cur = t
				break
			}
			seed := window(i, i)
			if dot(seed, seed) == 0 {
				seed = window(i-p.Window+1, i-1)
			}
			sums, ids, count = append(sums, seed), append(ids, next), append(count, 0)
			next++
			cur, born = len(sums)-1, i
		}
		if !p.Strict && prev >= 0 && prev != cur && count[prev] < p.Window {
			retired[prev] = true
		}
		if cur == empty {
			out[i] = Empty
			continue
		}
		if born != i || cur != len(sums)-1 {
			for k, x := range rows[i] {
				sums[cur][k] += x
			}
		}
		count[cur]++
		out[i] = ids[cur]
	}
	return out
}

// randomRows makes a phased random sequence: a few base distributions over
// d names, runs of 1–15 intervals drawn from one of them (or idle), with
// Poisson-like noise in integer counts.
func randomRows(r *rand.Rand, n, d int) [][]float64 {
	bases := make([][]float64, 2+r.IntN(4))
	for b := range bases {
		bases[b] = make([]float64, d)
		for k := range bases[b] {
			if r.IntN(3) == 0 {
				bases[b][k] = float64(r.IntN(10))
			}
		}
	}
	var rows [][]float64
	for len(rows) < n {
		b, run := r.IntN(len(bases)+1), 1+r.IntN(15)
		for ; run > 0 && len(rows) < n; run-- {
			row := make([]float64, d)
			if b < len(bases) {
				for k, x := range bases[b] {
					row[k] = math.Max(0, math.Round(x+r.NormFloat64()*2))
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

func TestDetectMatchesLiteralTranscription(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, d := 1+r.IntN(120), 1+r.IntN(12)
		rows := randomRows(r, n, d)
		p := Params{Window: 1 + r.IntN(5), Eps: 0.5 + r.Float64()/2, Delta: 0.5 + r.Float64()/2, Strict: trial%2 == 0}
		if trial%10 == 3 {
			p.Eps = 1 // nothing stays; a provisional phase still yields
		}
		res := detectRaw(t, vectors(make([]string, d), rows), p, nil)
		want := detectSlow(rows, p)
		if fmt.Sprint(res.Of) != fmt.Sprint(want) {
			t.Fatalf("trial %d %+v: Detect = %v, want %v", trial, p, res.Of, want)
		}
	}
}

// sparseRows makes n intervals each counting one or two of d names, so
// that windows often share no name with a phase: their dot product is
// exactly 0, a tie with ε = 0 or δ = 0 that the detector must treat as
// "not above".
func sparseRows(r *rand.Rand, n, d int) [][]float64 {
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, d)
		for range 1 + r.IntN(2) {
			rows[i][r.IntN(d)] = float64(1 + r.IntN(3))
		}
		if r.IntN(8) == 0 {
			clear(rows[i]) // idle
		}
	}
	return rows
}

// TestDetectThresholdTies checks the detector against the transcription
// where scores tie the thresholds exactly: ε or δ at 0 on sparse
// intervals, whose windows often share no name with a phase.
func TestDetectThresholdTies(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n, d := 1+r.IntN(60), 2+r.IntN(8)
		rows := sparseRows(r, n, d)
		p := Params{Window: 1 + r.IntN(3), Eps: 0, Delta: 0, Strict: trial%2 == 0}
		switch trial % 3 {
		case 1:
			p.Eps = 0.5 + r.Float64()/2
		case 2:
			p.Delta = 0.5 + r.Float64()/2
		}
		res := detectRaw(t, vectors(make([]string, d), rows), p, nil)
		if want := detectSlow(rows, p); fmt.Sprint(res.Of) != fmt.Sprint(want) {
			t.Fatalf("trial %d %+v: Detect = %v, want %v\nrows %v", trial, p, res.Of, want, rows)
		}
	}
}

// TestDetectScoreEqualToThreshold works out by hand two runs where a
// score equals a threshold: "above ε" and "above δ" are strict, so the
// interval starts a new phase.
func TestDetectScoreEqualToThreshold(t *testing.T) {
	tests := []struct {
		name       string
		rows       [][]float64
		eps, delta float64
		want       string
	}{
		// Phase 1 is (6, 8)/10 after two intervals; (1, 0) scores
		// 6/10 = 0.6 against it, exactly ε and δ (both 0.6 in binary):
		// neither kept nor resumed, so phase 2.
		{"score = ε = δ = 0.6", [][]float64{{3, 4}, {3, 4}, {1, 0}}, 0.6, 0.6, "[1 1 2]"},
		// (0, 1) shares no name with phase 1 (1, 0): score 0, which is not
		// above ε = 0; no phase shares a name, so phase 2.
		{"score = ε = 0", [][]float64{{1, 0}, {1, 0}, {0, 1}, {0, 1}}, 0, 0.9, "[1 1 2 2]"},
		// With ε = δ = 0, (1, 0) scores 0 against the current phase 2
		// (0, 1), not above ε, but 1 against phase 1, above δ: resumed.
		{"score = ε = 0 < δ-score", [][]float64{{1, 0}, {0, 1}, {1, 0}}, 0, 0, "[1 2 1]"},
	}
	for _, tc := range tests {
		for _, strict := range []bool{true, false} {
			p := Params{Window: 1, Eps: tc.eps, Delta: tc.delta, Strict: strict}
			res := detectRaw(t, vectors([]string{"x", "y"}, tc.rows), p, nil)
			if got := fmt.Sprint(res.Of); got != tc.want {
				t.Errorf("%s (strict %v): Detect = %s, want %s", tc.name, strict, got, tc.want)
			}
		}
	} // A provisional phase yields only to a phase scoring above δ: saved
	// phase 1 (3, 4) scores 6/10 = 0.6 = δ against the window (2, 0), so
	// the new phase 2, scoring 1 > ε, stays.
	seed := savedSeed(t, `{"params": {}, "phases": [{"id": 1, "vector": {"x": 3, "y": 4}}]}`, []string{"x", "y"})
	rows := [][]float64{{1, 0}, {1, 0}, {1, 0}}
	res := detectRaw(t, vectors([]string{"x", "y"}, rows), Params{Window: 3, Eps: 0.5, Delta: 0.6}, seed)
	if got := fmt.Sprint(res.Of); got != "[2 2 2]" {
		t.Errorf("provisional phase against a score = δ: Detect = %s, want [2 2 2]", got)
	}
}

func TestDetectEmptyAndReturn(t *testing.T) {
	a, b, z := []float64{5, 1, 0}, []float64{0, 1, 5}, []float64{0, 0, 0}
	tests := []struct {
		name string
		rows [][]float64
		want string
	}{
		// The window keeps a for ω-1 = 2 idle intervals, then the empty
		// phase; b is new (2); after idle, a's window is pure and resumes 1.
		{"return after idle", [][]float64{a, a, a, a, z, z, z, z, b, b, b, z, z, z, a, a}, "[1 1 1 1 1 1 0 0 2 2 2 2 2 0 1 1]"},
		// The paper's rule seeds a new phase with the interval's own vector:
		// on a direct switch the first mixed window matches nothing and
		// starts a phase seeded with a pure interval (2: b); the next mixed
		// window matches neither that nor a, and starts another (3: b),
		// which then holds. On the switch back, a gets new ids (4, 5): the
		// current phase is checked before earlier ones, so 1 is never
		// looked at again. This is JIVE's behaviour, kept exactly (the
		// transition phases of Lau et al., HPCA 2005).
		{"direct switches, strict", [][]float64{a, a, a, a, b, b, b, b, a, a, a}, "[1 1 1 1 2 3 3 3 4 5 5]"},
		// Without strict: phase 2, left after one interval, is a
		// transition phase and retired, so b goes on as 3; on the way back
		// the provisional 5 yields to a's 1 as soon as the window is pure a.
		{"direct switches", [][]float64{a, a, a, a, b, b, b, b, a, a, a}, "[1 1 1 1 2 3 3 3 4 5 1]"},
	}
	for _, tc := range tests {
		p := DefaultParams()
		p.Strict = strings.HasSuffix(tc.name, "strict")
		res := detectRaw(t, vectors([]string{"x", "y", "z"}, tc.rows), p, nil)
		if got := fmt.Sprint(res.Of); got != tc.want {
			t.Errorf("%s: Detect = %s, want %s", tc.name, got, tc.want)
		}
	}
	res := detectRaw(t, vectors([]string{"x", "y", "z"}, tests[0].rows), DefaultParams(), nil)
	if got := len(res.Phases); got != 3 || res.Phases[0].ID != Empty || res.Phases[0].Color != EmptyColor {
		t.Errorf("phases = %d, first %+v; want empty, 1, 2", got, res.Phases[0])
	}
	if got := res.Phase(2).Intervals; got != 5 {
		t.Errorf("phase 2 intervals = %d, want 5", got)
	}
}

func TestParamsCheck(t *testing.T) {
	for _, p := range []Params{{Window: 0, Eps: 0.9, Delta: 0.9}, {Window: 3, Eps: 1.5, Delta: 0.9}, {Window: 3, Eps: 0.9, Delta: -1}} {
		if _, err := Detect(t.Context(), vectors([]string{"x"}, [][]float64{{1}}), p, nil); err == nil {
			t.Errorf("Detect(%+v) = nil error, want one", p)
		}
	}
}

func TestHueSequence(t *testing.T) {
	// seed 003 §5: p0 = 0, p1 = 1, p2 = 0.5, p3 = 0.25, …, p9 = 0.0625.
	want := []float64{0, 1, 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875, 0.0625}
	for i, w := range want {
		if got := Hue(i + 1); got != w {
			t.Errorf("Hue(%d) = %g, want %g", i+1, got, w)
		}
	}
	seen := map[float64]bool{}
	for id := 1; id <= 1000; id++ {
		h := Hue(id)
		if h < 0 || h > 1 || seen[h] {
			t.Fatalf("Hue(%d) = %g: out of range or repeated", id, h)
		}
		seen[h] = true
	}
}

// TestColorHues: a phase's colour has its hue's place on the red-to-violet
// scale (0° to 270°), at one saturation and brightness, read back with the
// usual RGB-to-hue formula; the empty phase's id gives the empty colour.
func TestColorHues(t *testing.T) {
	if got := Color(Hue(Empty)); got != EmptyColor {
		t.Errorf("Color(Hue(Empty)) = %s, want %s", got, EmptyColor)
	}
	for k := range 271 {
		h := float64(k) / 270
		var r, g, b uint8
		if _, err := fmt.Sscanf(Color(h), "#%02x%02x%02x", &r, &g, &b); err != nil {
			t.Fatal(err)
		}
		hi, lo := float64(max(r, g, b)), float64(min(r, g, b))
		var deg float64
		switch {
		case hi == float64(r):
			deg = math.Mod(60*(float64(g)-float64(b))/(hi-lo)+360, 360)
		case hi == float64(g):
			deg = 60*(float64(b)-float64(r))/(hi-lo) + 120
		default:
			deg = 60*(float64(r)-float64(g))/(hi-lo) + 240
		}
		if math.Abs(deg-float64(k)) > 1.5 || math.Abs(hi-0.9*255) > 1 || math.Abs((hi-lo)/hi-0.75) > 0.01 {
			t.Errorf("Color(%d/270) = %s: hue %.1f°, value %.0f, saturation %.2f; want %d°, 230, 0.75", k, Color(h), deg, hi, (hi-lo)/hi, k)
		}
	}
}

func TestColor(t *testing.T) {
	tests := []struct {
		hue  float64
		want string
	}{
		{0, "#e63939"},       // 0°: red; HSV(0°, 0.75, 0.9) by hand
		{1.0 / 3, "#8fe639"}, // 90°: yellow-green
		{1, "#8f39e6"},       // 270°: violet
		{-1, EmptyColor},
	}
	for _, tc := range tests {
		if got := Color(tc.hue); got != tc.want {
			t.Errorf("Color(%g) = %s, want %s", tc.hue, got, tc.want)
		}
	}
}

// dot is the oracles' dot product, summed in index order.
func dot(a, b []float64) float64 {
	var s float64
	for j, x := range a {
		s += x * b[j]
	}
	return s
}

// TestDetectFirstPhaseRetired: the rule that a phase left after fewer than
// ω intervals is a transition and never resumed holds for the run's first
// phase too. b lasts one interval before a takes over; when b returns, the
// provisional phase its mixed window starts must not yield to that first b.
func TestDetectFirstPhaseRetired(t *testing.T) {
	a, b := []float64{5, 1, 0}, []float64{0, 1, 5}
	rows := [][]float64{b, a, a, a, a, b, b, b, b}
	res := detectRaw(t, vectors([]string{"x", "y", "z"}, rows), DefaultParams(), nil)
	if got, want := fmt.Sprint(res.Of), fmt.Sprint(detectSlow(rows, DefaultParams())); got != want || want != "[1 2 3 3 3 4 5 5 5]" {
		t.Errorf("Detect = %s, transcription %s, want [1 2 3 3 3 4 5 5 5]", got, want)
	}
}

// TestEmptyPhaseOnce: however many idle stretches there are, the empty
// phase is one phase, id 0, holding every interval whose window is idle.
func TestEmptyPhaseOnce(t *testing.T) {
	a, z := []float64{5, 1}, []float64{0, 0}
	rows := [][]float64{z, z, z, a, a, a, z, z, z, z, a, a, z, z, z}
	for _, strict := range []bool{true, false} {
		p := DefaultParams()
		p.Strict = strict
		res, err := Detect(t.Context(), vectors([]string{"x", "y"}, rows), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Of); got != "[0 0 0 1 1 1 1 1 0 0 1 1 1 1 0]" {
			t.Errorf("strict %v: Detect = %s, want [0 0 0 1 1 1 1 1 0 0 1 1 1 1 0]", strict, got)
		}
		var empties []*Phase
		for _, ph := range res.Phases {
			if ph.ID == Empty {
				empties = append(empties, ph)
			}
		}
		if len(empties) != 1 || empties[0].Intervals != 6 || empties[0].Color != EmptyColor {
			t.Errorf("strict %v: empty phases %+v, want one of 6 intervals coloured %s", strict, empties, EmptyColor)
		}
	}
}

// TestDetectSpread: with Params.Spread the thresholds are compared with
// the cosine corrected for sampling noise, both when keeping the current
// phase and when resuming an earlier one. Here D = 2; an interval of 15
// samples against a phase of 10 (or 20) scores 0.894 measured, 0.969 (or
// 0.946) corrected: above ε = δ = 0.9 only when corrected.
func TestDetectSpread(t *testing.T) {
	rowsOf := func(rows [][]float64, samples []int64) *Vectors {
		v := &Vectors{Names: []string{"x", "y"}, Off: []int{0}}
		for i, r := range rows {
			v.Append(Interval{int64(i), int64(i + 1)}, samples[i], r)
		}
		return v
	}
	tests := []struct {
		name          string
		rows          [][]float64
		samples       []int64
		delta         float64
		spread, plain string
	}{
		// δ above the corrected score: the phase is kept by the ε test
		// alone, not found again by the search.
		{"kept", [][]float64{{10, 0}, {10, 5}}, []int64{10, 15}, 0.99, "[1 1]", "[1 2]"},
		{"resumed", [][]float64{{10, 0}, {10, 0}, {0, 10}, {10, 5}}, []int64{10, 10, 10, 15}, 0.9, "[1 1 2 1]", "[1 1 2 3]"},
	}
	for _, tc := range tests {
		for _, spread := range []float64{0, 2} {
			p := Params{Window: 1, Eps: 0.9, Delta: tc.delta, Strict: true, Spread: spread}
			want := tc.plain
			if spread > 0 {
				want = tc.spread
			}
			if got := fmt.Sprint(detectRaw(t, rowsOf(tc.rows, tc.samples), p, nil).Of); got != want {
				t.Errorf("%s, spread %g: Detect = %s, want %s", tc.name, spread, got, want)
			}
		}
	}
}

// TestDetectLooksAtContext: Detect looks at its context at least once per
// checkEvery entries of the vectors it reads, so an interrupt is seen
// within a bounded amount of work however the input is shaped.
func TestDetectLooksAtContext(t *testing.T) {
	const n, d = 1 << 15, 64 // 2^21 entries: two looks at least
	v := &Vectors{Names: make([]string, d), Off: []int{0}}
	row := make([]float64, d)
	for k := range row {
		row[k] = 1
	}
	for i := range n {
		v.Append(Interval{int64(i), int64(i + 1)}, 1, row)
	}
	ctx := newCancelAfter(1 << 40)
	if _, err := Detect(ctx, v, DefaultParams(), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := ctx.calls.Load(), int64(n*d/checkEvery); got < want {
		t.Errorf("Detect looked at its context %d times over %d entries, want at least %d", got, n*d, want)
	}
}
