package phase

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/proflens/proflens/analysis"
)

// Count says what an interval vector counts for each name.
type Count uint8

const (
	// CountSelf counts the value of samples whose leaf node has the name.
	// It is the default: a sampled profile measures where time is spent,
	// and every stack shares its ancestors (runtime.main, main.main, a
	// server loop), so counting ancestors adds the same large component to
	// every vector and pushes the dot products of distinct phases towards
	// ε. Self counts keep that common part out, like JIVE's
	// library-eliding vectors.
	CountSelf Count = iota
	// CountTotal counts a sample once for every distinct name on its stack.
	CountTotal
	// CountEntries counts entries recovered by diffing consecutive stacks
	// of the same thread (AVID's C-2/C-3 idea): the frames below the
	// common prefix of the previous and the current stack were entered
	// since. It is closest to JIVE's method-entry counts, but a hot loop
	// sampled twice in the same place shows no entry at all.
	CountEntries
)

var countNames = []string{"self", "total", "entries"}

func (c Count) String() string { return countNames[c] }

// ParseCount reads "self", "total" or "entries".
func ParseCount(s string) (Count, error) {
	for i, n := range countNames {
		if n == s {
			return Count(i), nil
		}
	}
	return 0, fmt.Errorf("count=%s: want self, total or entries", s)
}

// Dims maps call-tree nodes to the dimensions of interval vectors: the
// compacted names of the current view.
type Dims struct {
	Names []string // dimension names, sorted
	Node  []int32  // per call-tree node: index into Names
}

// NewDims builds dimensions from the name of each call-tree node; nodes with
// the same name share a dimension.
func NewDims(nodeNames []string) *Dims {
	uniq := append([]string(nil), nodeNames...)
	sort.Strings(uniq)
	names := uniq[:0]
	for i, n := range uniq {
		if i == 0 || n != uniq[i-1] {
			names = append(names, n)
		}
	}
	d := &Dims{Names: names, Node: make([]int32, len(nodeNames))}
	for i, n := range nodeNames {
		d.Node[i] = int32(sort.SearchStrings(names, n))
	}
	return d
}

// LevelDims names every call-tree node by the first level elements of its
// frame's name: the uniform granularity state.
func LevelDims(t *analysis.Tree, level int) *Dims {
	names := make([]string, t.Len())
	memo := make(map[int32]string)
	for n := range names {
		f := t.Frame[n]
		s, ok := memo[f]
		if !ok {
			s = t.Names.Prefix(f, level)
			memo[f] = s
		}
		names[n] = s
	}
	return NewDims(names)
}

// Interval is a slice of time, [Start, End) in nanoseconds since the
// profile's start; for a series, profile i of the series is [i, i+1).
type Interval struct {
	Start, End int64
}

// Vectors are the interval vectors of a profile, stored sparsely: interval
// i has the entries Idx[Off[i]:Off[i+1]] (ascending dimension indices) with
// the counts Val[Off[i]:Off[i+1]].
type Vectors struct {
	Names     []string
	Intervals []Interval
	Samples   []int64 // samples falling in each interval
	Series    bool    // intervals are the profiles of a series, not time
	Off       []int
	Idx       []int32
	Val       []float64
}

// Len returns the number of intervals.
func (v *Vectors) Len() int { return max(len(v.Off)-1, 0) }

// check reports vectors whose parts disagree (offsets out of order or out
// of range, indices outside the names, counts that are not finite), which
// would make Detect or NewSimilarity fail midway.
func (v *Vectors) check() error {
	n := v.Len()
	if len(v.Intervals) != n || len(v.Samples) != n || len(v.Idx) != len(v.Val) {
		return fmt.Errorf("vectors: %d intervals, %d samples, %d indices and %d counts: want %d, %d and equal counts",
			len(v.Intervals), len(v.Samples), len(v.Idx), len(v.Val), n, n)
	}
	if n > 0 && (v.Off[0] != 0 || v.Off[n] != len(v.Idx)) {
		return fmt.Errorf("vectors: offsets from %d to %d: want 0 to %d", v.Off[0], v.Off[n], len(v.Idx))
	}
	for i := range n {
		if v.Off[i] > v.Off[i+1] {
			return fmt.Errorf("vectors: interval %d: offsets %d > %d: want them ascending", i, v.Off[i], v.Off[i+1])
		}
	}
	for k, j := range v.Idx {
		if j < 0 || int(j) >= len(v.Names) || math.IsNaN(v.Val[k]) || math.IsInf(v.Val[k], 0) {
			return fmt.Errorf("vectors: entry %d: name %d, count %g: want a name below %d and a finite count", k, j, v.Val[k], len(v.Names))
		}
	}
	return nil
}

// Dense returns interval i's vector as a dense slice of len(v.Names).
func (v *Vectors) Dense(i int) []float64 {
	out := make([]float64, len(v.Names))
	for k := v.Off[i]; k < v.Off[i+1]; k++ {
		out[v.Idx[k]] += v.Val[k]
	}
	return out
}

// grow makes room for n more intervals, so that a run's size is known up
// front rather than doubled by appends.
func (v *Vectors) grow(n int) {
	v.Off = slices.Grow(v.Off, n)
	v.Intervals = slices.Grow(v.Intervals, n)
	v.Samples = slices.Grow(v.Samples, n)
}

// Append adds one interval with a dense count vector (zeros are skipped).
func (v *Vectors) Append(iv Interval, samples int64, dense []float64) {
	if len(v.Off) == 0 {
		v.Off = append(v.Off, 0)
	}
	for d, x := range dense {
		if x != 0 {
			v.Idx = append(v.Idx, int32(d))
			v.Val = append(v.Val, x)
		}
	}
	v.Off = append(v.Off, len(v.Idx))
	v.Intervals = append(v.Intervals, iv)
	v.Samples = append(v.Samples, samples)
}
