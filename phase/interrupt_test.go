package phase

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
)

// cancelAfter is a context whose Err reports Canceled from its n-th call
// on: a deterministic interrupt in the middle of a loop that looks at its
// context, whatever the speed of the machine.
type cancelAfter struct {
	context.Context
	n, calls atomic.Int64
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) >= c.n.Load() {
		return context.Canceled
	}
	return nil
}

// deepProfile has samples samples, all at one time (so in one interval),
// of one stack depth frames deep.
func deepProfile(samples, depth int) *analysis.Tree {
	b := analysis.NewBuilder("deep", analysis.ValueType{Type: "samples", Unit: "count"})
	ids := make([]int32, depth)
	for i := range ids {
		ids[i] = b.Frame(analysis.Frame{Name: "f" + strings.Repeat("x", i%7) + string(rune('a'+i%26))})
	}
	st := b.Stack(ids)
	for range samples {
		b.Add(st, []int64{1}, 0, true, "g", nil)
	}
	return analysis.NewTree(b.Finish())
}

// manyNames makes n intervals, each counting one of d names in turn: each
// interval costs the detector and the similarity a pass over all d names.
func manyNames(n, d int) *Vectors {
	v := &Vectors{Names: make([]string, d), Off: []int{0}}
	for i := range n {
		v.Idx = append(v.Idx, int32(i%d))
		v.Val = append(v.Val, 1)
		v.Off = append(v.Off, len(v.Idx))
		v.Intervals = append(v.Intervals, Interval{int64(i), int64(i + 1)})
		v.Samples = append(v.Samples, 1)
	}
	return v
}

// TestInterrupts runs each long loop with a context that reports an
// interrupt at its second look (the first look is allowed to pass): each
// must stop with the context's error and no result, so each looks at its
// context during the work, not only at its end. With a context that is
// never cancelled, the same work succeeds and is looked at several times.
// Sizes: Build adds 3,000 samples of a 1,000-deep stack in one interval
// (count=total, 3M nodes visited), and runs 2.2M empty intervals; Detect
// and NewSimilarity pass over 3,000 windows of 1,000 names; NewSimilarity
// again over 1,000 windows of 100 names, where its work is in the cells
// (1,000 × 1,000 dot products of 100 names), not the windows. Memory stays
// under about 100 MB (the empty intervals' vectors).
func TestInterrupts(t *testing.T) {
	deep := deepProfile(3000, 1000)
	sparse := timedProfile(t, "0 g x", "2200000 g y")
	wide := manyNames(3000, 1000)
	cells := manyNames(1000, 100) // 0.1M units of work in the windows, 50M in the cells
	runs := map[string]func(ctx context.Context) (any, error){
		"Build, one interval of deep stacks": func(ctx context.Context) (any, error) {
			return Build(ctx, deep, LevelDims(deep, 9), Options{Count: CountTotal})
		},
		"Build, many empty intervals": func(ctx context.Context) (any, error) {
			return Build(ctx, sparse, LevelDims(sparse, 9), Options{Interval: 1, MaxIntervals: 3_000_000})
		},
		"Detect": func(ctx context.Context) (any, error) {
			return Detect(ctx, wide, Params{Window: 1, Eps: 0.9, Delta: 0.9, Strict: true}, nil)
		},
		"NewSimilarity": func(ctx context.Context) (any, error) {
			return NewSimilarity(ctx, wide, 1, MaxCells, 0)
		},
		"NewSimilarity, its cells": func(ctx context.Context) (any, error) {
			return NewSimilarity(ctx, cells, 1, MaxCells, 0)
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			ctx := newCancelAfter(2)
			if _, err := run(ctx); !errors.Is(err, context.Canceled) || ctx.calls.Load() != 2 {
				t.Errorf("interrupted at the second look: error %v after %d looks, want context.Canceled after 2", err, ctx.calls.Load())
			}
			never := newCancelAfter(1 << 62)
			if res, err := run(never); err != nil || res == nil || never.calls.Load() < 2 {
				t.Errorf("never interrupted: %v after %d looks, want a result after at least 2", err, never.calls.Load())
			}
		})
	}
}

// BenchmarkInterruptLatency measures how soon Build and Detect stop after
// an interrupt, in the middle of a run of 1M intervals with 1,000-name
// windows (about 1 s of work): the goal is under 50 ms
// (ns/interrupt, a custom metric; ns/op includes the setup).
func BenchmarkInterruptLatency(b *testing.B) {
	v := manyNames(1_000_000, 1000)
	var total time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan time.Time)
		go func() {
			Detect(ctx, v, Params{Window: 1, Eps: 0.9, Delta: 0.9, Strict: true}, nil)
			done <- time.Now()
		}()
		time.Sleep(20 * time.Millisecond)
		at := time.Now()
		cancel()
		total += (<-done).Sub(at)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/interrupt")
}
