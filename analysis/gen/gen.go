// Package gen generates large synthetic profiles with realistic Go-style
// names, for benchmarks: a deterministic function of a Config. The default
// is the speed target: one million samples over about 120,000
// distinct stacks of 50,000 functions, 40 frames deep on average.
package gen

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/pprof"
)

// Config sizes a generated profile.
type Config struct {
	Samples   int    // sample records, each one CPU sample (10ms)
	Stacks    int    // distinct stacks wanted (reached unless the call graph is too small)
	Functions int    // distinct functions
	MeanDepth int    // mean stack depth
	Seed      uint64 // same seed, same profile
}

// Default is the configuration of the speed benchmark.
func Default() Config {
	return Config{Samples: 1_000_000, Stacks: 120_000, Functions: 50_000, MeanDepth: 40, Seed: 1}
}

// period is the CPU sampling period of the generated profile (100 Hz).
const period = 10_000_000

// Profile builds the profile described by c. Time and memory are linear in
// c.Samples plus c.Stacks × c.MeanDepth.
func Profile(c Config) *analysis.Profile {
	r := rand.New(rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15))
	g := newGraph(r, c.Functions, c.MeanDepth)
	b := analysis.NewBuilder("pprof",
		analysis.ValueType{Type: "samples", Unit: "count"},
		analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	p := b.Profile()
	p.Lang = analysis.LangGo
	p.DefaultValue = 1
	p.Period = period
	p.PeriodType = analysis.ValueType{Type: "cpu", Unit: "nanoseconds"}
	p.Duration = durationOf(c.Samples)
	frames := make([]int32, len(g.names))
	for i, n := range g.names {
		frames[i] = b.Frame(analysis.Frame{Name: n, File: g.files[i], Line: int64(10 + i%400)})
	}
	stacks := distinctStacks(r, g, b, frames, c)
	weights := zipfCDF(len(stacks), 1.1)
	for i := 0; i < c.Samples; i++ {
		s := stacks[pick(weights, r.Float64())]
		b.Add(s, []int64{1, period}, 0, false, "", nil)
	}
	return b.Finish()
}

// durationOf is the wall time of n samples at 100 Hz on 8 busy threads.
func durationOf(n int) time.Duration {
	return time.Duration(int64(n) * period / 8)
}

// Write writes the profile described by c to w as a gzipped pprof protobuf.
func Write(w io.Writer, c Config) error {
	return pprof.Write(w, Profile(c))
}

// File writes the profile described by c into dir once, under a name made
// from c, and returns its path; later calls reuse the file. Benchmarks call
// it with os.TempDir() or b.TempDir().
func File(dir string, c Config) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("proflens-gen-%d-%d-%d-%d-%d.pb.gz",
		c.Samples, c.Stacks, c.Functions, c.MeanDepth, c.Seed))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, "proflens-gen-*.tmp")
	if err != nil {
		return "", fmt.Errorf("gen: %w", err)
	}
	if err := Write(tmp, c); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", fmt.Errorf("gen: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("gen: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("gen: %w", err)
	}
	return path, nil
}

// zipfCDF returns the cumulative weights of n items with weight 1/(k+1)^s.
func zipfCDF(n int, s float64) []float64 {
	cdf := make([]float64, n)
	sum := 0.0
	for k := range cdf {
		sum += 1 / math.Pow(float64(k+1), s)
		cdf[k] = sum
	}
	for k := range cdf {
		cdf[k] /= sum
	}
	return cdf
}

// pick returns the first index whose cumulative weight reaches u.
func pick(cdf []float64, u float64) int {
	lo, hi := 0, len(cdf)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cdf[mid] < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
