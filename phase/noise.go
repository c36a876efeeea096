package phase

import (
	"math"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// Sampling noise. An interval's counts are a sample of its phase's
// distribution over the names, p. With m samples in a window, the window's
// cosine with the phase's own vector is about
//
//	c(m) = 1/√(1 + (D−1)/m),   D = 1/Σp²
//
// (the expected squared length of the counts is m²Σp² + m(1−Σp²)), where
// D, the inverse Simpson index of p, is the effective number of names the
// phase spreads over: D names equally likely give D. A steady phase stays
// in its phase when c(m) > ε, so a window must hold
//
//	m ≥ (D−1)/(1/c² − 1)
//
// samples to reach a cosine c. DefaultInterval asks for c = (1+ε)/2,
// halfway from ε to a perfect match (0.95 for ε = 0.9), which for D = 10
// is 83 samples a window, 28 an interval at ω = 3.

// chunkSamples is how many consecutive samples Spread measures D over: a
// stretch short enough to lie mostly inside one phase, long enough for D
// to be measured.
const chunkSamples = 500

// Spread returns D, the effective number of names the samples of t's
// recording fall on in d, by their leaves (count=self): the median over
// stretches of chunkSamples consecutive samples of 1/Σp², Σp² corrected
// for the stretch's own sampling (E[Σp̂²] = Σp² + (1−Σp²)/s for s
// samples). A whole recording mixes its phases, whose D is lower; a
// stretch is mostly one phase. 1 for a recording of fewer than 2 samples.
// Time is linear in the samples.
func Spread(t *analysis.Tree, d *Dims) float64 {
	p := t.Profile
	n := len(p.Samples)
	if n < 2 {
		return 1
	}
	size := min(chunkSamples, n)
	var ds []float64
	count := make([]float64, len(d.Names))
	var touched []int32
	for lo := 0; lo+size <= n; lo += size {
		for _, j := range touched {
			count[j] = 0
		}
		touched = touched[:0]
		for _, s := range p.Samples[lo : lo+size] {
			if node := t.StackNode[s.Stack]; node >= 0 {
				j := d.Node[node]
				if count[j] == 0 {
					touched = append(touched, j)
				}
				count[j]++
			}
		}
		ds = append(ds, inverseSimpson(count, touched))
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// inverseSimpson returns 1/Σp² of the shares of the counts at touched,
// Σp² corrected for sampling; at least 1, and the number of names when
// the correction leaves nothing (every sample on a name of its own).
func inverseSimpson(count []float64, touched []int32) float64 {
	var s, sq float64
	for _, j := range touched {
		s += count[j]
		sq += count[j] * count[j]
	}
	if s < 2 {
		return 1
	}
	simpson := (sq/(s*s) - 1/s) / (1 - 1/s) // unbiased Σp²
	if simpson <= 0 {
		return float64(len(touched))
	}
	return math.Max(1, 1/simpson)
}

// WindowSamples returns the samples a window needs for a steady phase
// spread over D names to reach a cosine of (1+ε)/2 with its phase vector.
func WindowSamples(D, eps float64) float64 {
	c := (1 + eps) / 2
	return math.Max(D-1, 0) / (1/(c*c) - 1)
}

// noiseLift returns 1/c(m) for a recording of spread D: √(1 + (D−1)/m);
// 1 when D is at most 1 (no correction) or m is not positive.
func noiseLift(D, m float64) float64 {
	if D <= 1 || m <= 0 {
		return 1
	}
	return math.Sqrt(1 + (D-1)/m)
}

// SteadyCosine returns c(m), the cosine a steady phase's window of m
// samples has with the phase's own vector, for a recording of spread D.
func SteadyCosine(D, m float64) float64 { return 1 / noiseLift(D, m) }
