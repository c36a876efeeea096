package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// LoadSeries loads every file matching glob as one program's time series:
// the profiles are ordered by their own start times when all have one, else
// by file name, and merged into one Profile of Format "series" whose
// Intervals give each profile's samples and IntervalNames its file. All
// files must have the same value types. With start times, each sample's
// Time is its profile's start relative to the first, and the series is Timed.
//
// The series as a whole keeps to opts.Limits, as each of its files does.
func LoadSeries(ctx context.Context, glob string, opts LoadOptions) (*Profile, error) {
	paths, err := filepath.Glob(glob)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", glob, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("load %s: no files match", glob)
	}
	parts := make([]*Profile, len(paths))
	limits := opts.Limits.orDefault()
	left := limits
	for i, path := range paths {
		if parts[i], err = Load(ctx, path, opts); err != nil {
			return nil, err
		}
		if left = left.less(parts[i]); left.exhausted(glob, limits) != nil {
			return nil, fmt.Errorf("load %w", left.exhausted(glob, limits))
		}
	}
	return series(ctx, glob, parts, limits)
}

// Series merges profiles of one program into a series (see LoadSeries). The
// profiles are reordered by start time, else by Source; IntervalNames are
// the Sources without their common directory. The result keeps to
// DefaultLimits.
func Series(name string, parts []*Profile) (*Profile, error) {
	return series(context.Background(), name, parts, DefaultLimits)
}

// SeriesContext is Series within limits (zero fields mean their
// defaults), stopping soon after ctx ends.
func SeriesContext(ctx context.Context, name string, parts []*Profile, limits Limits) (*Profile, error) {
	return series(ctx, name, parts, limits.orDefault())
}

func series(ctx context.Context, name string, parts []*Profile, limits Limits) (*Profile, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("series %s: no profiles", name)
	}
	parts = append([]*Profile(nil), parts...)
	timed := true
	for _, p := range parts {
		timed = timed && !p.Start.IsZero()
	}
	sort.SliceStable(parts, func(i, j int) bool {
		if timed && !parts[i].Start.Equal(parts[j].Start) {
			return parts[i].Start.Before(parts[j].Start)
		}
		return parts[i].Source < parts[j].Source
	})
	first := parts[0]
	for _, p := range parts[1:] {
		if !slices.Equal(p.ValueTypes, first.ValueTypes) {
			return nil, fmt.Errorf("series %s: %s has value types %s, but %s has %s",
				name, p.Source, typeList(p.ValueTypes), first.Source, typeList(first.ValueTypes))
		}
	}
	b := NewBuilder("series", first.ValueTypes...).bounded(ctx, nil, name, limits)
	out := b.Profile()
	out.Source, out.Lang, out.DefaultValue = name, first.Lang, first.DefaultValue
	out.Period, out.PeriodType, out.Start = first.Period, first.PeriodType, first.Start
	dir := commonDir(parts)
	for _, p := range parts {
		out.Intervals = append(out.Intervals, len(out.Samples))
		out.IntervalNames = append(out.IntervalNames, strings.TrimPrefix(p.Source, dir))
		AddAll(b, p, p.Start.Sub(first.Start), timed)
		for _, w := range p.Warnings {
			b.Warn(p.Source + ": " + w)
		}
	}
	out.Intervals = append(out.Intervals, len(out.Samples))
	if last := parts[len(parts)-1]; timed {
		out.Duration = last.Start.Sub(first.Start) + last.Duration
	}
	if err := b.Err(); err != nil {
		return nil, fmt.Errorf("series %w", err)
	}
	return b.Finish(), nil
}

// AddAll copies p's samples into b, re-interning frames and stacks, each
// stack under the frames of under (root-most first); each sample's time
// is at, when timed.
func AddAll(b *Builder, p *Profile, at time.Duration, timed bool, under ...Frame) {
	frames := make([]int32, len(p.Frames))
	for i, f := range p.Frames {
		frames[i] = b.Frame(f)
	}
	stacks := make([]int32, p.Stacks.Len())
	var top []int32
	for _, f := range under {
		top = append(top, b.Frame(f))
	}
	st := slices.Clone(top)
	for i, s := range p.Stacks.All() {
		st = st[:len(top)]
		for _, f := range s {
			st = append(st, frames[f])
		}
		stacks[i] = b.Stack(st)
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		b.Add(stacks[s.Stack], p.Values(s), int64(at), timed, p.Thread(s), p.Labels(s))
	}
}

func typeList(t []ValueType) string {
	s := make([]string, len(t))
	for i, vt := range t {
		s[i] = vt.Type + "/" + vt.Unit
	}
	return "[" + strings.Join(s, " ") + "]"
}

// commonDir returns the longest directory prefix, with its separator, that
// all the profiles' Sources share.
func commonDir(parts []*Profile) string {
	dir := parts[0].Source
	for _, p := range parts[1:] {
		for !strings.HasPrefix(p.Source, dir) {
			dir = dir[:len(dir)-1]
		}
	}
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		return dir[:i+1]
	}
	return ""
}
