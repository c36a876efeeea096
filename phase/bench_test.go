package phase

import (
	"math/rand/v2"
	"testing"
)

// benchVectors makes n intervals over d names in runs of about run
// intervals (run/20 to 2·run) of one of 30 recurring phases: a phase draws its intervals' counts from
// perInterval consecutive names (phases overlap) with its own weights,
// ±20% per interval; 1 in 50 intervals is empty.
func benchVectors(n, d, perInterval, run int) *Vectors {
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
			if r.IntN(50) != 0 {
				for k, j := range base {
					v.Idx = append(v.Idx, j)
					v.Val = append(v.Val, weights[ph][k]*(0.8+0.4*r.Float64()))
				}
			}
			v.Off = append(v.Off, len(v.Idx))
			v.Intervals = append(v.Intervals, Interval{int64(i), int64(i + 1)})
			v.Samples = append(v.Samples, 1)
		}
	}
	return v
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
	for b.Loop() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDetectDense is the same detector over 100k intervals whose
// vectors use all 200 names.
func BenchmarkDetectDense(b *testing.B) {
	v := benchVectors(100_000, 200, 199, 100)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDetectFewSwitches is BenchmarkDetect with a switch every ~2000
// intervals (~500 switches): the cost of the windows and of the current
// phase's test, with little searching.
func BenchmarkDetectFewSwitches(b *testing.B) {
	v := benchVectors(1_000_000, 200, 10, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Detect(b.Context(), v, DefaultParams(), nil); err != nil {
			b.Fatal(err)
		}
	}
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
	for b.Loop() {
		w := newWindow(v, 3)
		for i := range v.Len() {
			w.advance(i)
			sink += dot(ref, w.sum)
		}
	}
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
	for b.Loop() {
		if _, err := Detect(b.Context(), v, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}
