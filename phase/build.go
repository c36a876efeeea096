package phase

import (
	"errors"
	"fmt"
	"math"

	"github.com/proflens/proflens/analysis"
)

// DefaultIntervals is about how many intervals Build cuts a timed profile
// into when no interval length is given.
const DefaultIntervals = 200

// Options are the user's choices for Build.
type Options struct {
	Interval int64 // interval length in ns; 0 picks a round length giving about DefaultIntervals
	Count    Count
	Value    int // value type weighting self and total counts
}

// ErrUntimed says a profile has neither timed samples nor a series.
var ErrUntimed = errors.New("no time-ordered samples and not a series: phases need a trace, perf script, V8 or speedscope profile with times, or a series of profiles")

// Build cuts t's profile into intervals and counts, per interval, the
// samples of each dimension of d. A timed profile is cut from its first to
// its last sample into intervals of o.Interval (gaps give empty intervals);
// a series gives one interval per profile. Time is linear in the samples
// times the stack depth (self: times one).
func Build(t *analysis.Tree, d *Dims, o Options) (*Vectors, error) {
	p := t.Profile
	if o.Value < 0 || o.Value >= len(p.ValueTypes) {
		return nil, fmt.Errorf("value index %d: profile has %d value types", o.Value, len(p.ValueTypes))
	}
	if o.Interval < 0 {
		return nil, fmt.Errorf("interval %d ns: want a positive length", o.Interval)
	}
	b := &builder{t: t, d: d, o: o, dense: make([]float64, len(d.Names)), stamp: make([]int32, len(d.Names)), last: map[string]int32{}}
	b.v = &Vectors{Names: d.Names}
	switch {
	case p.Intervals != nil:
		if o.Count == CountEntries {
			return nil, errors.New("count=entries needs time-ordered samples; a series of profiles has none: use count=self or count=total")
		}
		b.series()
	case p.Timed:
		b.timed()
	default:
		return nil, ErrUntimed
	}
	if b.v.Off == nil {
		b.v.Off = []int{0}
	}
	return b.v, nil
}

type builder struct {
	t       *analysis.Tree
	d       *Dims
	o       Options
	v       *Vectors
	dense   []float64
	stamp   []int32
	gen     int32
	samples int64
	last    map[string]int32 // per thread: leaf node of the previous sample
}

func (b *builder) series() {
	p := b.t.Profile
	b.v.Series = true
	n := seriesLen(p)
	for i := 0; i < n; i++ {
		lo, hi := p.Intervals[i], len(p.Samples)
		if i+1 < len(p.Intervals) {
			hi = p.Intervals[i+1]
		}
		for s := lo; s < hi; s++ {
			b.add(&p.Samples[s])
		}
		b.flush(Interval{int64(i), int64(i + 1)})
	}
}

// seriesLen returns the number of profiles in a series: Intervals holds
// their first sample indices, with or without a final len(Samples).
func seriesLen(p *analysis.Profile) int {
	n := len(p.Intervals)
	if len(p.IntervalNames) > 0 && len(p.IntervalNames) <= n {
		return len(p.IntervalNames)
	}
	if n > 1 && p.Intervals[n-1] == len(p.Samples) {
		return n - 1
	}
	return n
}

func (b *builder) timed() {
	p := b.t.Profile
	t0, t1 := p.Samples[0].Time, p.Samples[len(p.Samples)-1].Time
	step := b.o.Interval
	if step == 0 {
		step = RoundInterval((t1 - t0) / DefaultIntervals)
	}
	n := (t1-t0)/step + 1
	s := 0
	for k := int64(0); k < n; k++ {
		end := t0 + (k+1)*step
		for ; s < len(p.Samples) && p.Samples[s].Time < end; s++ {
			b.add(&p.Samples[s])
		}
		b.flush(Interval{end - step, end})
	}
}

// RoundInterval returns the length among 1, 2 and 5 times a power of ten
// nearest to ns by ratio (at least 1 ns).
func RoundInterval(ns int64) int64 {
	best := int64(1)
	for m := int64(1); m <= math.MaxInt64/10; m *= 10 {
		for _, f := range []int64{1, 2, 5} {
			if ratio(f*m, ns) < ratio(best, ns) {
				best = f * m
			}
		}
	}
	return best
}

func ratio(a, b int64) float64 {
	r := float64(a) / float64(max(b, 1))
	return max(r, 1/r)
}

func (b *builder) flush(iv Interval) {
	b.v.Append(iv, b.samples, b.dense)
	clear(b.dense)
	b.samples = 0
}

func (b *builder) add(s *analysis.Sample) {
	b.samples++
	node := b.t.StackNode[s.Stack]
	w := float64(b.t.Profile.Value(s, b.o.Value))
	switch b.o.Count {
	case CountSelf:
		if node >= 0 {
			b.dense[b.d.Node[node]] += w
		}
	case CountTotal:
		b.gen++
		for n := node; n >= 0; n = b.t.Parent[n] {
			if dim := b.d.Node[n]; b.stamp[dim] != b.gen {
				b.stamp[dim] = b.gen
				b.dense[dim] += w
			}
		}
	case CountEntries:
		b.entries(b.t.Profile.Thread(s), node)
	}
}

// entries counts the nodes on the path from node up to (not including) the
// deepest common ancestor with the thread's previous leaf.
func (b *builder) entries(thread string, node int32) {
	prev, ok := b.last[thread]
	if !ok {
		prev = -1
	}
	b.last[thread] = node
	for n := node; n >= 0; n = b.t.Parent[n] {
		if prev >= 0 && n <= prev && prev < n+b.t.Size[n] {
			return // n is an ancestor of prev (or prev itself): common prefix
		}
		b.dense[b.d.Node[n]]++
	}
}
