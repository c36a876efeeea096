package phase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestSteadyCosineMatchesSimulation checks the noise model against
// sampling itself: windows of m samples drawn from a distribution p over
// names have, on average, the cosine SteadyCosine(1/Σp², m) with p.
func TestSteadyCosineMatchesSimulation(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range [][]float64{
		{0.5, 0.5},
		{0.2, 0.2, 0.2, 0.2, 0.2},
		zipf(12),
		zipf(40),
	} {
		var sq float64
		for _, x := range p {
			sq += x * x
		}
		D := 1 / sq
		for _, m := range []int{20, 60, 200, 1000} {
			var sum float64
			const trials = 1000
			count := make([]float64, len(p))
			for range trials {
				clear(count)
				for range m {
					count[pick(r, p)]++
				}
				sum += cosineOf(count, p)
			}
			if got, want := sum/trials, SteadyCosine(D, float64(m)); math.Abs(got-want) > 0.015 {
				t.Errorf("D = %.2f, m = %d: mean cosine %.4f, SteadyCosine %.4f", D, m, got, want)
			}
		}
	}
}

func zipf(n int) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		p[i] = 1 / float64(i+1)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// TestSpread: samples spread evenly over D names have a spread of about
// D; a recording whose phases each spread over 4 names of their own has a
// spread of about 4, not the 8 names of the whole run.
func TestSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	record := func(phaseOf func(i int) int, names int) *analysis.Tree {
		b := analysis.NewBuilder("spread", analysis.ValueType{Type: "samples", Unit: "count"})
		for i := range 20000 {
			f := b.Frame(analysis.Frame{Name: string(rune('a' + phaseOf(i)*names + r.IntN(names)))})
			b.Add(b.Stack([]int32{f}), []int64{1}, int64(i), true, "", nil)
		}
		return analysis.NewTree(b.Finish())
	}
	for _, tc := range []struct {
		name    string
		tree    *analysis.Tree
		want    float64
		withinP float64
	}{
		{"7 names", record(func(int) int { return 0 }, 7), 7, 0.05},
		{"two phases of 4", record(func(i int) int { return i / 2500 % 2 }, 4), 4, 0.05},
		{"1 name", record(func(int) int { return 0 }, 1), 1, 0},
	} {
		got := Spread(tc.tree, LevelDims(tc.tree, 9))
		if math.Abs(got-tc.want) > tc.withinP*tc.want {
			t.Errorf("%s: Spread = %.2f, want %.0f within %.0f%%", tc.name, got, tc.want, 100*tc.withinP)
		}
	}
}

// TestSpreadExact: D of samples each on a name of its own is their
// number, from 2 samples on (the sampling correction leaves no shared
// mass); over several stretches, every whole stretch counts and the
// median is taken: stretches of 1, 500 and about 2 names give about 2.
func TestSpreadExact(t *testing.T) {
	record := func(nameOf func(i int) string, n int) *analysis.Tree {
		b := analysis.NewBuilder("spread", analysis.ValueType{Type: "samples", Unit: "count"})
		for i := range n {
			b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: nameOf(i)})}), []int64{1}, int64(i), true, "", nil)
		}
		return analysis.NewTree(b.Finish())
	}
	own := func(i int) string { return fmt.Sprint("f", i) }
	for _, n := range []int{2, 3, 10, chunkSamples} {
		if tr := record(own, n); Spread(tr, LevelDims(tr, 9)) != float64(n) {
			t.Errorf("%d samples on %d names: Spread = %g, want %d", n, n, Spread(tr, LevelDims(tr, 9)), n)
		}
	}
	tr := record(func(i int) string {
		switch i / chunkSamples {
		case 0:
			return "one"
		case 1:
			return own(i)
		}
		return own(i % 2)
	}, 3*chunkSamples)
	if got := Spread(tr, LevelDims(tr, 9)); math.Abs(got-2) > 0.01 {
		t.Errorf("stretches of 1, %d and 2 names: Spread = %g, want about 2", chunkSamples, got)
	}
}

// TestWindowSamples: a window of WindowSamples(D, ε) samples reads a
// steady phase at (1+ε)/2, halfway from ε to a perfect match.
func TestWindowSamples(t *testing.T) {
	for _, D := range []float64{2, 5, 12.5, 100} {
		for _, eps := range []float64{0.8, 0.9, 0.95} {
			if got, want := SteadyCosine(D, WindowSamples(D, eps)), (1+eps)/2; math.Abs(got-want) > 1e-12 {
				t.Errorf("SteadyCosine(%g, WindowSamples(%g, %g)) = %g, want %g", D, D, eps, got, want)
			}
		}
	}
	if got := WindowSamples(1, 0.9); got != 0 {
		t.Errorf("WindowSamples(1 name) = %g, want 0: one name has no sampling noise", got)
	}
}
