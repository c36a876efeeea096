// Package jsonprof holds what the JSON formats (v8, chrome, speedscope)
// share: samples converted out of time order and added once sorted, time
// units, and decoding errors that name the byte offset and JSON path.
package jsonprof

import (
	"cmp"
	"slices"
	"time"

	"github.com/proflens/proflens/analysis"
)

// Sample is one converted sample before it is added in time order.
type Sample struct {
	Stack  int32
	Weight int64 // in the profile's unit; for times, nanoseconds
	Time   int64 // nanoseconds since the profile's origin
	Thread string
}

// AddCounted adds samples to b in time order (stable for equal times), each
// with the values {1, Weight}: a count, then a weight.
func AddCounted(b *analysis.Builder, out []Sample) {
	sortByTime(out)
	b.Grow(len(out))
	for _, s := range out {
		b.Add(s.Stack, []int64{1, s.Weight}, s.Time, true, s.Thread, nil)
	}
}

// AddWeighted adds samples to b, each with the single value Weight; in time
// order (stable) when timed, else as they are, untimed.
func AddWeighted(b *analysis.Builder, out []Sample, timed bool) {
	if timed {
		sortByTime(out)
	}
	b.Grow(len(out))
	for _, s := range out {
		b.Add(s.Stack, []int64{s.Weight}, s.Time, timed, s.Thread, nil)
	}
}

func sortByTime(out []Sample) {
	byTime := func(a, b Sample) int { return cmp.Compare(a.Time, b.Time) }
	if !slices.IsSortedFunc(out, byTime) {
		slices.SortStableFunc(out, byTime)
	}
}

// MeanPeriod returns the mean weight per sample but the last, in the
// profile's unit.
func MeanPeriod(out []Sample) int64 {
	if len(out) < 2 {
		return 0
	}
	var sum int64
	for _, s := range out {
		sum += s.Weight
	}
	return sum / int64(len(out)-1)
}

// Nanos converts microseconds to nanoseconds.
func Nanos(us float64) int64 { return int64(us * 1000) }

// Duration is ns as a duration, 0 when negative.
func Duration(ns int64) time.Duration {
	if ns < 0 {
		return 0
	}
	return time.Duration(ns)
}
