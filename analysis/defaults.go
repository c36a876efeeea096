package analysis

import (
	"fmt"
	"time"
)

// What a loaded profile is read with when the file leaves a choice, and
// what in its metadata looks wrong; both are said in the profile's notes.

// nonZeroDefault makes the first value type with a nonzero total the
// default when the file's default is zero in every sample (a .NET agent's
// pprof defaults to lock_time, zero in a CPU profile), so that top does not
// come out empty.
func nonZeroDefault(p *Profile) {
	d := p.DefaultValue
	if d < 0 || d >= len(p.ValueTypes) || len(p.Samples) == 0 || p.Total(d) != 0 {
		return
	}
	for v := range p.ValueTypes {
		if p.Total(v) != 0 {
			p.DefaultValue = v
			p.Notes = append(p.Notes, fmt.Sprintf("the file's default value type %s is zero in every sample: showing %s, the first that is not (value= chooses another)",
				p.ValueTypes[d].Type, p.ValueTypes[v].Type))
			return
		}
	}
}

// Plausible bounds of a profile's metadata: a profile covers at most a
// week, and started in this century. Profiling agents that convert other
// recordings sometimes write an end time as the duration (474466h13m5s,
// the Unix time of 2024-02-16, in JFR-derived pprof files) or a time since
// boot as the start.
var (
	maxPlausibleDuration = 7 * 24 * time.Hour
	minPlausibleStart    = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxPlausibleStart    = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// notePlausibility notes a duration or a start time that cannot be right.
func notePlausibility(p *Profile) {
	switch d := p.Duration; {
	case d < 0:
		p.Notes = append(p.Notes, fmt.Sprintf("the file gives a negative duration, %v: it is wrong", d))
	case d > maxPlausibleDuration && !p.Start.IsZero() && absDuration(d-time.Duration(p.Start.UnixNano())) < 24*time.Hour:
		p.Notes = append(p.Notes, fmt.Sprintf("the file gives a duration of %v, which is its start time since 1970: the duration is wrong (an end time written as a duration?)", d))
	case d > maxPlausibleDuration:
		p.Notes = append(p.Notes, fmt.Sprintf("the file gives a duration of %v, more than a week: it is probably wrong", d))
	}
	if s := p.Start; !s.IsZero() && (s.Before(minPlausibleStart) || !s.Before(maxPlausibleStart)) {
		p.Notes = append(p.Notes, fmt.Sprintf("the file gives a start time of %s, outside 2000–2099: it is probably wrong (a time since boot?)",
			s.UTC().Format(time.RFC3339)))
	}
}

// noteNegative says what the totals of a profile with negative values mean:
// the file is a difference of two profiles (a delta, such as
// net/http/pprof's ?seconds=N profiles, or a diff), so that a total is a
// net change, and it gives the increases and the decreases.
func noteNegative(p *Profile) {
	v := p.DefaultValue
	if v < 0 || v >= len(p.ValueTypes) {
		return
	}
	var up, down int64
	n := 0
	for i := range p.Samples {
		if x := p.Value(&p.Samples[i], v); x > 0 {
			up += x
		} else if x < 0 {
			down, n = down+x, n+1
		}
	}
	if n == 0 {
		return
	}
	vt := p.ValueTypes[v]
	p.Notes = append(p.Notes, fmt.Sprintf("%d of %d samples are negative: the file is a difference of two profiles (a delta or a diff), "+
		"and a total is a net change: %s %s = %s of increases, %s of decreases",
		n, len(p.Samples), vt.Type, FormatValue(up+down, vt.Unit), FormatValue(up, vt.Unit), FormatValue(-down, vt.Unit)))
}

// absDuration returns |d|.
func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
