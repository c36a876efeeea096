package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/pprof" // the stores answer pprof
)

// Range is the time a load reads, [From, To): one merged profile, or,
// when Step is set, one merged profile per window of Step (the last one
// ends at To).
type Range struct {
	From, To time.Time
	Step     time.Duration
}

// DefaultMaxSteps bounds the windows of one load when Options set none.
const DefaultMaxSteps = 1000

// Options bound a Fetch.
type Options struct {
	Limit    int64                // bytes read from the store over all windows; 0 means analysis.DefaultLimit
	MaxSteps int                  // windows at most; 0 means DefaultMaxSteps
	Load     analysis.LoadOptions // the value type and the model's limits (Format is pprof)
	// Progress, when set, is called after each window with the windows
	// done, their number, and the bytes read so far.
	Progress func(done, steps int, bytes int64)
}

// windows returns the start of each window of r.
func (r Range) windows(maxSteps int) ([]time.Time, error) {
	if !r.To.After(r.From) {
		return nil, fmt.Errorf("the range ends (to=%s) before it starts (from=%s)", stamp(r.To), stamp(r.From))
	}
	if r.Step == 0 {
		return []time.Time{r.From}, nil
	}
	if r.Step < time.Second {
		return nil, fmt.Errorf("step=%s is shorter than the stores' resolution: use a step of 1s or more", r.Step)
	}
	n := (r.To.Sub(r.From) + r.Step - 1) / r.Step
	if n > time.Duration(maxSteps) {
		return nil, fmt.Errorf("step=%s cuts %s to %s into %d steps, more than max-steps=%d: choose a longer step or raise max-steps",
			r.Step, stamp(r.From), stamp(r.To), n, maxSteps)
	}
	out := make([]time.Time, n)
	for i := range out {
		out[i] = r.From.Add(time.Duration(i) * r.Step)
	}
	return out, nil
}

// end is the end of the window that starts at t.
func (r Range) end(t time.Time) time.Time {
	if r.Step == 0 || t.Add(r.Step).After(r.To) {
		return r.To
	}
	return t.Add(r.Step)
}

// stamp writes a time as the stores' users read it: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// PartialError is the error of a series that stopped part way: the
// profile Fetch returns with it holds the Kept steps before the one that
// failed.
type PartialError struct {
	Kept, Steps int
	Err         error
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("step %d of %d: %v", e.Kept+1, e.Steps, e.Err)
}

func (e *PartialError) Unwrap() error { return e.Err }

// Fetch reads src's query over r from s: without a step one merged
// profile, with a step a series (analysis.Series) of one interval per
// window, an empty interval for a window without profiles. The profiles
// keep to o.Load.Limits, all together, and the answers to o.Limit bytes.
// A range without any profile is an error. When a window fails after
// others were read (the store stops answering, the context ends), Fetch
// returns the series of the windows before it with a *PartialError.
func Fetch(ctx context.Context, s Store, src Source, r Range, o Options) (*analysis.Profile, error) {
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Limit <= 0 {
		o.Limit = analysis.DefaultLimit
	}
	o.Load.Format = "pprof"
	starts, err := r.windows(o.MaxSteps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	f := &fetch{s: s, src: src, r: r, o: o}
	for i, t := range starts {
		p, err := f.window(ctx, t)
		if err != nil {
			return f.stopped(ctx, i, len(starts), err)
		}
		f.parts = append(f.parts, p)
		if o.Progress != nil {
			o.Progress(i+1, len(starts), f.read)
		}
	}
	return f.profile(ctx)
}

// fetch is one Fetch under way.
type fetch struct {
	s     Store
	src   Source
	r     Range
	o     Options
	read  int64               // bytes read so far
	parts []*analysis.Profile // one per window done; nil for an empty one
}

// window reads the merged profile of the window starting at t; nil when
// the store has none there.
func (f *fetch) window(ctx context.Context, t time.Time) (*analysis.Profile, error) {
	end := f.r.end(t)
	data, err := f.s.Merge(ctx, f.src.Query, t, end, f.o.Limit-f.read)
	if err != nil {
		return nil, err
	}
	f.read += int64(len(data))
	if len(data) == 0 {
		return nil, nil
	}
	load := f.o.Load
	load.Limit = f.o.Limit - f.read + int64(len(data))
	p, err := analysis.Parse(ctx, f.src.String()+" from="+stamp(t), data, load)
	if err != nil {
		return nil, err
	}
	if len(p.Samples) == 0 {
		return nil, nil
	}
	p.Start, p.Duration, p.Source = t, end.Sub(t), stamp(t)
	return p, nil
}

// stopped returns what a Fetch that failed at window i of n keeps: the
// series of the windows before, when one of them had profiles.
func (f *fetch) stopped(ctx context.Context, i, n int, err error) (*analysis.Profile, error) {
	if f.r.Step == 0 || f.template() == nil {
		return nil, err
	}
	p, serr := analysis.SeriesContext(context.WithoutCancel(ctx), f.src.String(), f.filled(), f.o.Load.Limits)
	if serr != nil {
		return nil, errors.Join(err, serr)
	}
	return p, &PartialError{Kept: i, Steps: n, Err: err}
}

// profile assembles the profile of a Fetch that read every window.
func (f *fetch) profile(ctx context.Context) (*analysis.Profile, error) {
	if f.template() == nil {
		return nil, fmt.Errorf("%s: no profiles from %s to %s (list what the store holds with load %s from=… to=…)",
			f.src, stamp(f.r.From), stamp(f.r.To), f.src.Store())
	}
	if f.r.Step == 0 {
		p := f.parts[0]
		p.Source = f.src.String()
		return p, nil
	}
	return analysis.SeriesContext(ctx, f.src.String(), f.filled(), f.o.Load.Limits)
}

// template is the first window's profile that has samples, or nil.
func (f *fetch) template() *analysis.Profile {
	for _, p := range f.parts {
		if p != nil {
			return p
		}
	}
	return nil
}

// filled returns the parts with each empty window as a profile without
// samples, of the template's value types.
func (f *fetch) filled() []*analysis.Profile {
	t := f.template()
	out := make([]*analysis.Profile, len(f.parts))
	for i, p := range f.parts {
		if p == nil {
			start := f.r.From.Add(time.Duration(i) * f.r.Step)
			p = analysis.NewBuilder(t.Format, t.ValueTypes...).Finish()
			p.Lang, p.DefaultValue, p.Period, p.PeriodType = t.Lang, t.DefaultValue, t.Period, t.PeriodType
			p.Start, p.Duration, p.Source = start, f.r.end(start).Sub(start), stamp(start)
		}
		out[i] = p
	}
	return out
}
