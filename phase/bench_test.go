package phase

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/proflens/proflens/internal/testtool"
)

// benchVectors makes n intervals over d names in runs of about run
// intervals (run/20 to 2·run) of one of 30 recurring phases: a phase draws its intervals' counts from
// perInterval consecutive names (phases overlap) with its own weights,
// ±20% per interval; 1 in 50 intervals is empty.
func benchVectors(n, d, perInterval, run int) *Vectors {
	v, _ := benchRun(n, d, perInterval, run)
	return v
}

// benchRun is benchVectors with the program's phase per interval (1 to
// 30; 0 for an empty interval): the truth a detector is scored against.
func benchRun(n, d, perInterval, run int) (*Vectors, []int32) {
	truth := make([]int32, 0, n)
	r := rand.New(rand.NewPCG(7, 7))
	v := &Vectors{Names: make([]string, d), Off: make([]int, 1, n+1)}
	v.Idx = make([]int32, 0, n*perInterval)
	v.Val = make([]float64, 0, n*perInterval)
	v.Intervals = make([]Interval, 0, n)
	v.Samples = make([]int64, 0, n)
	firsts := make([]int32, 30) // the program's 30 recurring phases
	weights := make([][]float64, 30)
	for k := range firsts {
		firsts[k] = int32(r.IntN(d - perInterval + 1))
		weights[k] = make([]float64, perInterval)
		for j := range weights[k] {
			weights[k][j] = float64(1 + r.IntN(20))
		}
	}
	base := make([]int32, perInterval)
	for i := 0; i < n; {
		ph := r.IntN(len(firsts))
		for k := range base {
			base[k] = firsts[ph] + int32(k)
		}
		for run := run/20 + r.IntN(run*2); run > 0 && i < n; run, i = run-1, i+1 {
			label := int32(0)
			if r.IntN(50) != 0 {
				label = int32(ph + 1)
				for k, j := range base {
					v.Idx = append(v.Idx, j)
					v.Val = append(v.Val, weights[ph][k]*(0.8+0.4*r.Float64()))
				}
			}
			v.Off = append(v.Off, len(v.Idx))
			v.Intervals = append(v.Intervals, Interval{int64(i), int64(i + 1)})
			v.Samples = append(v.Samples, 1)
			truth = append(truth, label)
		}
	}
	return v, truth
}

// BenchmarkDetect runs the detector over 1M intervals × 200 names (10
// counts stored per interval; W_i and the phase vectors are dense over all
// 200 names), switching phase every ~100 intervals: 10k switches, each
// leaving JIVE's one-interval transition phases, ~25k phases in all, which
// the search for an earlier phase must visit. Goal: under 1 s.
func BenchmarkDetect(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 100)
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDetectDense is the same detector over 100k intervals whose
// vectors use all 200 names.
func BenchmarkDetectDense(b *testing.B) {
	v := benchVectors(100_000, 200, 199, 100)
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDetectFewSwitches is BenchmarkDetect with a switch every ~2000
// intervals (~500 switches): the cost of the windows and of the current
// phase's test, with little searching.
func BenchmarkDetectFewSwitches(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkWindowFloor is the floor under BenchmarkDetect's data: only the
// incremental windows and one 200-name dot product per interval, no
// phases.
func BenchmarkWindowFloor(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 100)
	ref := make([]float64, len(v.Names))
	for j := range ref {
		ref[j] = 1
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	testtool.Loop(b, func() {
		w := newWindow(v, 3)
		for i := range v.Len() {
			w.advance(i)
			sink += floats.Dot(ref, w.sum)
		}
	})
	_ = sink
}

// BenchmarkDetectStrict is BenchmarkDetect under the paper's rule alone:
// every transition phase stays searchable, so each search visits them all.
func BenchmarkDetectStrict(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 100)
	p := DefaultParams()
	p.Strict = true
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if _, err := Detect(b.Context(), v, p, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDemo runs each step of the phases command over the first demo
// recording at its default interval (level 1, count=self): the sizes a
// notebook sees.
func BenchmarkDemo(b *testing.B) {
	p, v := demoAt(b, "phasedemo-1.trace", CountSelf, -1)
	truth := demoTruth(p, v)
	r, err := Detect(b.Context(), v, DefaultParams(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Detect", func(b *testing.B) {
		b.ReportAllocs()
		testtool.Loop(b, func() {
			if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("Similarity", func(b *testing.B) {
		b.ReportAllocs()
		testtool.Loop(b, func() {
			if _, err := NewSimilarity(b.Context(), v, 3, MaxCells, 0); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("ARI", func(b *testing.B) {
		b.ReportAllocs()
		testtool.Loop(b, func() {
			ARI(truth, r.Of)
		})
	})
	b.Run("Consecutive", func(b *testing.B) {
		b.ReportAllocs()
		testtool.Loop(b, func() {
			Consecutive(v, 3, 0.9)
		})
	})
}

// BenchmarkSimilarity computes the matrix of BenchmarkDetect's 1M
// intervals × 200 names at the largest side, MaxCells.
func BenchmarkSimilarity(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 100)
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		if _, err := NewSimilarity(b.Context(), v, 3, MaxCells, 0); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkARI compares the detection of BenchmarkDetect's run (~25k
// phases) with the run's 30 phases.
func BenchmarkARI(b *testing.B) {
	v, truth := benchRun(1_000_000, 200, 10, 100)
	r, err := Detect(b.Context(), v, DefaultParams(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		ARI(truth, r.Of)
	})
}

// BenchmarkConsecutive runs the memoryless baseline over BenchmarkDetect's
// run: one dense normalization and dot product per interval.
func BenchmarkConsecutive(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 100)
	b.ReportAllocs()
	b.ResetTimer()
	testtool.Loop(b, func() {
		Consecutive(v, 3, 0.9)
	})
}
