package pprof

import (
	"fmt"
	"io"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
)

// ThreadLabel is the pprof label under which Write stores a sample's
// thread or goroutine.
const ThreadLabel = "thread"

// Write writes p as a gzipped pprof protobuf. Each frame becomes one
// location with one line, each distinct (name, file) one function; a
// sample's thread is kept as the label ThreadLabel, its labels as string
// labels. Per-sample times are not representable in pprof and are dropped.
// Loading the result gives the same stacks, values and top.
func Write(w io.Writer, p *analysis.Profile) error {
	out, err := toProfile(p)
	if err != nil {
		return err
	}
	if err := out.Write(w); err != nil {
		return fmt.Errorf("write pprof: %w", err)
	}
	return nil
}

// toProfile converts p to a pprof profile (see Write).
func toProfile(p *analysis.Profile) (*profile.Profile, error) {
	if len(p.ValueTypes) == 0 {
		return nil, fmt.Errorf("export pprof: profile has no value types")
	}
	out := &profile.Profile{
		PeriodType:    &profile.ValueType{Type: p.PeriodType.Type, Unit: p.PeriodType.Unit},
		Period:        p.Period,
		DurationNanos: int64(p.Duration),
		Comments:      p.Comment,
	}
	if !p.Start.IsZero() {
		out.TimeNanos = p.Start.UnixNano()
	}
	for _, vt := range p.ValueTypes {
		out.SampleType = append(out.SampleType, &profile.ValueType{Type: vt.Type, Unit: vt.Unit})
	}
	if p.DefaultValue >= 0 && p.DefaultValue < len(p.ValueTypes) {
		out.DefaultSampleType = p.ValueTypes[p.DefaultValue].Type
	}
	locs := exportLocations(out, p)
	out.Sample = make([]*profile.Sample, 0, len(p.Samples))
	stacks := make([][]*profile.Location, p.Stacks.Len())
	for s, st := range p.Stacks.All() {
		l := make([]*profile.Location, len(st))
		for i, f := range st {
			l[len(st)-1-i] = locs[f] // pprof stacks are leaf first
		}
		stacks[s] = l
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		out.Sample = append(out.Sample, &profile.Sample{
			Location: stacks[s.Stack],
			Value:    append([]int64(nil), p.Values(s)...),
			Label:    exportLabels(p.Labels(s), p.Thread(s)),
		})
	}
	if err := out.CheckValid(); err != nil {
		return nil, fmt.Errorf("export pprof: %w", err)
	}
	return out, nil
}

// exportLocations adds one function per distinct (name, file) and one
// location per frame to out; it returns the locations by frame id.
func exportLocations(out *profile.Profile, p *analysis.Profile) []*profile.Location {
	type fkey struct{ name, file string }
	funcs := map[fkey]*profile.Function{}
	locs := make([]*profile.Location, len(p.Frames))
	for i, fr := range p.Frames {
		k := fkey{fr.Name, fr.File}
		fn, ok := funcs[k]
		if !ok {
			fn = &profile.Function{ID: uint64(len(out.Function) + 1), Name: fr.Name, SystemName: fr.Name, Filename: fr.File}
			funcs[k] = fn
			out.Function = append(out.Function, fn)
		}
		loc := &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: fn, Line: fr.Line}}}
		locs[i] = loc
		out.Location = append(out.Location, loc)
	}
	return locs
}

// exportLabels returns a sample's labels plus its thread, or nil.
func exportLabels(labels map[string][]string, thread string) map[string][]string {
	if len(labels) == 0 && thread == "" {
		return nil
	}
	l := make(map[string][]string, len(labels)+1)
	for k, v := range labels { // pprof's encoder sorts label keys
		l[k] = append([]string(nil), v...)
	}
	if thread != "" {
		if _, taken := l[ThreadLabel]; !taken {
			l[ThreadLabel] = []string{thread}
		}
	}
	return l
}
