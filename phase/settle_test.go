package phase

import (
	"fmt"
	"testing"
)

func repeatRow(n int, row []float64) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = row
	}
	return out
}

func concatRows(parts ...[][]float64) [][]float64 {
	var out [][]float64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestSettle works out by hand what the settling does after the windowed
// detector, and that strict=true (the paper's rule alone) does none of it.
func TestSettle(t *testing.T) {
	a, b, idle := []float64{10, 1}, []float64{1, 10}, []float64{0, 0}
	pure := [][]float64{{10, 0}, {0, 10}}
	tests := []struct {
		name          string
		rows          [][]float64
		window        int
		strict, found string
		settled       int
	}{
		// One interval of b inside a, with ω = 1: the window is that
		// interval alone, which starts phase 2; settled, it is a blip.
		{"blip", concatRows(repeatRow(5, a), repeatRow(1, b), repeatRow(5, a)), 1,
			"[1 1 1 1 1 2 1 1 1 1 1]", "[1 1 1 1 1 1 1 1 1 1 1]", 1},
		// A blip of the empty phase is idle time, not noise: it stays.
		{"idle blip", concatRows(repeatRow(5, a), repeatRow(1, idle), repeatRow(5, a)), 1,
			"[1 1 1 1 1 0 1 1 1 1 1]", "[1 1 1 1 1 0 1 1 1 1 1]", 0},
		// A switch from a to b with ω = 3: the window (a, a, b) matches a
		// at 20/√500 = 0.894, below ε, and nothing else: phase 2 starts
		// with b's interval; (a, b, b) matches it at 0.894 too: phase 3,
		// b for good. Phase 2, one interval, is a transition, and its
		// interval (b) matches b's phase: it joins it.
		{"transition", concatRows(repeatRow(6, pure[0]), repeatRow(6, pure[1])), 3,
			"[1 1 1 1 1 1 2 3 3 3 3 3]", "[1 1 1 1 1 1 2 2 2 2 2 2]", 1},
		// Less distinct phases: (a, a, b) still matches a at 0.913, so the
		// detector switches one interval late; the interval's own counts
		// are b's: the switch moves back to it.
		{"late switch", concatRows(repeatRow(6, a), repeatRow(6, b)), 3,
			"[1 1 1 1 1 1 1 2 2 2 2 2]", "[1 1 1 1 1 1 2 2 2 2 2 2]", 1},
		// a, b, a with ω = 3 and direct switches: the paper's rule leaves
		// two transitions (2, 4) and gives a's return a new id (5) for
		// good. The provisional phases give the return a's id once its
		// window is pure ([1 1 1 1 2 3 3 3 4 5 1 1]); settled, the three
		// transitions (2, 4, 5) join the neighbours their counts match.
		{"return", concatRows(repeatRow(4, pure[0]), repeatRow(4, pure[1]), repeatRow(4, pure[0])), 3,
			"[1 1 1 1 2 3 3 3 4 5 5 5]", "[1 1 1 1 2 2 2 2 1 1 1 1]", 3},
	}
	for _, tc := range tests {
		v := vectors([]string{"x", "y"}, tc.rows)
		p := Params{Window: tc.window, Eps: 0.9, Delta: 0.9, Strict: true}
		r, err := Detect(t.Context(), v, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(r.Of); got != tc.strict || r.Settled != 0 {
			t.Errorf("%s, strict: Detect = %s (%d settled), want %s (none)", tc.name, got, r.Settled, tc.strict)
		}
		p.Strict = false
		if r, err = Detect(t.Context(), v, p, nil); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(r.Of); got != tc.found || r.Settled != tc.settled {
			t.Errorf("%s: Detect = %s (%d settled), want %s (%d)", tc.name, got, r.Settled, tc.found, tc.settled)
		}
		for _, ph := range r.Phases {
			if ph.Intervals == 0 || ph.Color != Color(Hue(ph.ID)) && ph.ID != Empty {
				t.Errorf("%s: phase %d has %d intervals, colour %s; want intervals, the colour of its id", tc.name, ph.ID, ph.Intervals, ph.Color)
			}
		}
	}
}

// TestSettleSamePhase: a phase that the windows could not match when it
// came back, whose intervals then sum to an earlier phase's vector above
// δ, is that phase; one below δ stays apart.
func TestSettleSamePhase(t *testing.T) {
	a1, a2, b := []float64{10, 6, 0}, []float64{10, 0, 6}, []float64{0, 1, 10}
	for _, tc := range []struct {
		delta float64
		want  string
	}{
		// Phase 3's intervals sum to (20, 6, 6), as phase 1's do: cosine
		// 1, above δ = 0.9, not above δ = 1.
		{0.9, "[1 1 1 1 2 2 2 2 1 1 1 1]"},
		{1, "[1 1 1 1 2 2 2 2 3 3 3 3]"},
	} {
		rows := concatRows([][]float64{a1, a2, a1, a2}, repeatRow(4, b), [][]float64{a2, a1, a2, a1})
		v := vectors([]string{"x", "y", "z"}, rows)
		r := &Result{Params: Params{Window: 3, Eps: 0.9, Delta: tc.delta}, Names: v.Names,
			Of: []int32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}}
		for id := 1; id <= 3; id++ {
			ph := &Phase{ID: id, Color: Color(Hue(id)), Sum: make([]float64, 3)}
			ph.ref = ph.Sum
			r.Phases = append(r.Phases, ph)
		}
		if err := settle(v, r, 1, &pacer{ctx: t.Context()}); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(r.Of); got != tc.want {
			t.Errorf("settle with δ = %g: %s, want %s", tc.delta, got, tc.want)
		}
	}
}
