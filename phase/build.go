package phase

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/proflens/proflens/analysis"
)

// DefaultIntervals is about how many intervals Build cuts a timed profile
// into when no interval length is given, unless it has too few samples for
// that (MinSamples).
const DefaultIntervals = 200

// MinSamples is about how many samples DefaultInterval puts in an
// interval on average, at least: with fewer, the interval vectors are
// noise, and a short run gives dozens of phases.
const MinSamples = 20

// Options are the user's choices for Build.
type Options struct {
	Interval     int64 // interval length in ns; 0 picks a round length giving about DefaultIntervals
	Count        Count
	Value        int // value type weighting self and total counts
	MaxIntervals int // most intervals to cut; 0 for DefaultMaxIntervals
}

// ErrUntimed says a profile has neither timed samples nor a series.
var ErrUntimed = errors.New("no time-ordered samples and not a series: phases need a trace, perf script, V8 or speedscope profile with times, or a series of profiles")

// Build cuts t's profile into intervals and counts, per interval, the
// samples of each dimension of d. A timed profile is cut from its first to
// its last sample into intervals of o.Interval (gaps give empty intervals);
// a series gives one interval per profile. The number of intervals is
// checked against o.MaxIntervals before anything is allocated (a
// *LimitError names an interval that fits), and ctx is looked at as the
// work goes. Time is linear in the intervals plus the samples times the
// stack depth (self: times one).
func Build(ctx context.Context, t *analysis.Tree, d *Dims, o Options) (*Vectors, error) {
	p := t.Profile
	if o.Value < 0 || o.Value >= len(p.ValueTypes) {
		return nil, fmt.Errorf("value index %d: profile has %d value types", o.Value, len(p.ValueTypes))
	}
	if o.Interval < 0 {
		return nil, fmt.Errorf("interval %d ns: want a positive length", o.Interval)
	}
	if o.Count > CountEntries {
		return nil, fmt.Errorf("count %d: want CountSelf, CountTotal or CountEntries", o.Count)
	}
	if o.MaxIntervals < 0 {
		return nil, fmt.Errorf("max intervals %d: want a positive number (0 for the default)", o.MaxIntervals)
	}
	o.MaxIntervals = bound(o.MaxIntervals, DefaultMaxIntervals, intervalBytes)
	b := &builder{t: t, d: d, o: o, pace: pacer{ctx: ctx}, dense: make([]float64, len(d.Names)),
		stamp: make([]int32, len(d.Names)), last: map[string]int32{}}
	b.v = &Vectors{Names: d.Names, Off: []int{0}}
	var err error
	switch {
	case p.Intervals != nil:
		if o.Count == CountEntries {
			return nil, errors.New("count=entries needs time-ordered samples; a series of profiles has none: use count=self or count=total")
		}
		err = b.series()
	case p.Timed:
		err = b.timed()
	default:
		return nil, ErrUntimed
	}
	if err != nil {
		return nil, err
	}
	return b.v, nil
}

type builder struct {
	t       *analysis.Tree
	d       *Dims
	o       Options
	pace    pacer
	v       *Vectors
	dense   []float64 // the current interval's counts by dimension
	touched []int32   // dimensions added to since the last flush
	stamp   []int32
	gen     int32
	samples int64
	last    map[string]int32 // per thread: leaf node of the previous sample
}

func (b *builder) series() error {
	p := b.t.Profile
	b.v.Series = true
	n := seriesLen(p)
	if n > b.o.MaxIntervals {
		return &LimitError{Limit: "intervals", Need: int64(n), Max: int64(b.o.MaxIntervals), Memory: atMemory(int64(b.o.MaxIntervals), intervalBytes),
			Msg: fmt.Sprintf("a series of %d profiles is more intervals than the limit of %d", n, b.o.MaxIntervals)}
	}
	b.v.grow(n)
	for i := 0; i < n; i++ {
		lo, hi := p.Intervals[i], len(p.Samples)
		if i+1 < len(p.Intervals) {
			hi = p.Intervals[i+1]
		}
		if err := b.addRange(lo, hi); err != nil {
			return err
		}
		b.flush(Interval{int64(i), int64(i + 1)})
	}
	return nil
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

func (b *builder) timed() error {
	p := b.t.Profile
	if len(p.Samples) == 0 {
		return nil
	}
	t0 := p.Samples[0].Time
	step, n, err := b.grid(t0, p.Samples[len(p.Samples)-1].Time)
	if err != nil {
		return err
	}
	b.v.grow(int(n))
	s := 0
	for k := int64(0); k < n; k++ {
		end := t0 + (k+1)*step
		hi := s
		for hi < len(p.Samples) && p.Samples[hi].Time < end {
			hi++
		}
		if err := b.addRange(s, hi); err != nil {
			return err
		}
		s = hi
		b.flush(Interval{end - step, end})
	}
	return nil
}

// grid returns the interval length and the number of intervals from t0 to
// t1, or a *LimitError when they are more than o.MaxIntervals.
func (b *builder) grid(t0, t1 int64) (step, n int64, err error) {
	span := max(t1-t0, 0)
	step = b.o.Interval
	if step == 0 {
		step = RoundInterval(span / DefaultIntervals)
	}
	n = span/step + 1
	if limit := int64(b.o.MaxIntervals); n > limit {
		fit := roundUp(span/limit + 1) // span/fit + 1 ≤ limit
		return 0, 0, &LimitError{Limit: "intervals", Need: n, Max: limit, Memory: atMemory(limit, intervalBytes),
			Msg: fmt.Sprintf("samples over %v in intervals of %v make %d intervals, more than the limit of %d: an interval of %v or longer fits",
				time.Duration(span), time.Duration(step), n, limit, time.Duration(fit))}
	}
	return step, n, nil
}

// addRange adds samples lo to hi-1 to the current interval, looking at
// the context as it goes.
func (b *builder) addRange(lo, hi int) error {
	p := b.t.Profile
	for s := lo; s < hi; s++ {
		if err := b.pace.step(b.add(&p.Samples[s])); err != nil {
			return err
		}
	}
	return b.pace.step(1)
}

// DefaultInterval returns the interval length to cut t's timed recording
// into when the user gives none, for the names of d and the detector's
// parameters p, and why, in words. Each interval must hold enough samples
// for its vector to tell phases apart: at least MinSamples, and its share
// of the window's WindowSamples for the recording's Spread (see noise.go).
// The length is the round length (1, 2 or 5 times a power of ten) nearest
// to the one giving that many samples an interval on average, or to the
// one giving DefaultIntervals intervals when that is longer.
func DefaultInterval(t *analysis.Tree, d *Dims, p Params) (ns int64, why string) {
	n := len(t.Profile.Samples)
	if n == 0 {
		return 1, "no samples"
	}
	span := max(t.Profile.Samples[n-1].Time-t.Profile.Samples[0].Time, 1)
	ns = RoundInterval(span / DefaultIntervals)
	spread, w := Spread(t, d), max(p.Window, 1)
	need := math.Ceil(WindowSamples(spread, p.Eps) / float64(w))
	if need > MinSamples {
		why = fmt.Sprintf("about %.0f samples an interval on average (%d samples over %v): the samples spread over %.1f names "+
			"(see phases' help), and a window of %d intervals needs %.0f for a steady phase to read a cosine of %.3g",
			need, n, time.Duration(span), spread, w, need*float64(w), (1+p.Eps)/2)
	} else {
		need = MinSamples
		why = fmt.Sprintf("about %d samples an interval on average (%d samples over %v), the fewest that make a vector", MinSamples, n, time.Duration(span))
	}
	if bySamples := RoundInterval(int64(float64(span) * need / float64(n))); bySamples > ns {
		return bySamples, why
	}
	return ns, fmt.Sprintf("about %d intervals over %v", DefaultIntervals, time.Duration(span))
}

// roundUp returns the smallest of 1, 2 and 5 times a power of ten that is
// at least ns.
func roundUp(ns int64) int64 {
	for m := int64(1); m <= math.MaxInt64/10; m *= 10 {
		for _, f := range []int64{1, 2, 5} {
			if f*m >= ns {
				return f * m
			}
		}
	}
	return math.MaxInt64
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

// flush ends the current interval: its nonzero counts go to the vectors
// in dimension order, at a cost in the dimensions touched, not all of them.
func (b *builder) flush(iv Interval) {
	v := b.v
	slices.Sort(b.touched)
	for _, j := range b.touched {
		if x := b.dense[j]; x != 0 {
			v.Idx = append(v.Idx, j)
			v.Val = append(v.Val, x)
		}
		b.dense[j] = 0
	}
	b.touched = b.touched[:0]
	v.Off = append(v.Off, len(v.Idx))
	v.Intervals = append(v.Intervals, iv)
	v.Samples = append(v.Samples, b.samples)
	b.samples = 0
}

// count adds w to dimension j of the current interval.
func (b *builder) count(j int32, w float64) {
	if b.dense[j] == 0 {
		b.touched = append(b.touched, j)
	}
	b.dense[j] += w
}

// add counts sample s in the current interval and returns the work done:
// the nodes of its stack visited.
func (b *builder) add(s *analysis.Sample) int {
	b.samples++
	node := b.t.StackNode[s.Stack]
	w := float64(b.t.Profile.Value(s, b.o.Value))
	switch b.o.Count {
	case CountTotal:
		b.gen++
		visited := 1
		for n := node; n >= 0; n = b.t.Parent[n] {
			if dim := b.d.Node[n]; b.stamp[dim] != b.gen {
				b.stamp[dim] = b.gen
				b.count(dim, w)
			}
			visited++
		}
		return visited
	case CountEntries:
		return b.entries(b.t.Profile.Thread(s), node)
	}
	if node >= 0 {
		b.count(b.d.Node[node], w)
	}
	return 1
}

// entries counts the nodes on the path from node up to (not including) the
// deepest common ancestor with the thread's previous leaf, and returns the
// work done.
func (b *builder) entries(thread string, node int32) int {
	prev, ok := b.last[thread]
	if !ok {
		prev = -1
	}
	b.last[thread] = node
	visited := 1
	for n := node; n >= 0; n = b.t.Parent[n] {
		if prev >= 0 && n <= prev && prev < n+b.t.Size[n] {
			break // n is an ancestor of prev (or prev itself): common prefix
		}
		b.count(b.d.Node[n], 1)
		visited++
	}
	return visited
}
