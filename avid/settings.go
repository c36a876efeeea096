package avid

import (
	"github.com/proflens/proflens/analysis"
)

// RecordSize is the size of a recording in records of one frame or one
// time each: an event records a frame (or a class) and a time (2), a
// snapshot its stack's frames and a time (depth + 1). An evented recording
// is measured by its events, a sampled one by its samples; memory events
// count 2 each in both.
func RecordSize(p *analysis.Profile) int64 {
	_, ms := analysis.MemoryEvents(p)
	n := 2 * int64(len(ms))
	if len(p.Calls) > 0 {
		return n + 2*int64(len(p.Events))
	}
	for i := range p.Samples {
		n += int64(len(p.Stacks.At(p.Samples[i].Stack))) + 1
	}
	return n
}

// Settings returns the paper's six samplings of Table 1 scaled to p: C-1
// and C-2 every x events and C-3 every x events' mean time, for x = 1000
// and 100 as the paper has them when p has 100,000 events or more; for a
// shorter recording the coarse x is a hundredth of its events (at least 2)
// and the fine one a tenth of that (at least 2), and a setting the same as
// the one before it is left out.
func Settings(p *analysis.Profile) []Sampling {
	coarse, fine, period := scaled(int64(len(p.Events)), eventSpan(p))
	return distinct([]Sampling{{Kind: "C-1", Every: coarse}, {Kind: "C-1", Every: fine}, {Kind: "C-2", Every: coarse},
		{Kind: "C-2", Every: fine}, {Kind: "C-3", Every: period(coarse)}, {Kind: "C-3", Every: period(fine)}})
}

// MemorySettings returns the paper's four samplings of Table 2 scaled to
// p as Settings scales x: C-1 with the fine x of control-flow events and
// M-1 with the fine x of memory events; M-3 with M-1, coarse and fine; M-3
// with M-2 every coarse x memory events' mean time.
func MemorySettings(p *analysis.Profile) []Sampling {
	_, ms := analysis.MemoryEvents(p)
	var span int64
	if len(ms) > 0 {
		span = ms[len(ms)-1].Time - ms[0].Time
	}
	coarse, fine, period := scaled(int64(len(ms)), span)
	_, cfine, _ := scaled(int64(len(p.Events)), eventSpan(p))
	return distinct([]Sampling{{Kind: "C-1", Every: cfine, Memory: "M-1", MemoryEvery: fine},
		{Memory: "M-1", MemoryEvery: coarse, Snap: true}, {Memory: "M-1", MemoryEvery: fine, Snap: true},
		{Memory: "M-2", MemoryEvery: period(coarse), Snap: true}})
}

// scaled returns the coarse and fine x for n events over span, and the
// mean time of x events, rounded to two digits.
func scaled(n, span int64) (coarse, fine int64, period func(int64) int64) {
	coarse = min(max(n/100, 2), 1000)
	fine = max(coarse/10, 2)
	return coarse, fine, func(x int64) int64 { return twoDigits(max(span*x/max(n, 1), 1)) }
}

func eventSpan(p *analysis.Profile) int64 {
	if len(p.Events) == 0 {
		return 0
	}
	return p.EventTime(p.Events[len(p.Events)-1]) - p.EventTime(p.Events[0])
}

// distinct leaves out a setting the same as the one before it.
func distinct(ss []Sampling) []Sampling {
	var out []Sampling
	for _, s := range ss {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// twoDigits rounds n to its two leading digits (677118 to 680000).
func twoDigits(n int64) int64 {
	scale := twoDigitScale(n)
	return (n + scale/2) / scale * scale
}

// twoDigitsUp rounds n up to two leading digits (677118 to 680000, 101 to
// 110).
func twoDigitsUp(n int64) int64 {
	scale := twoDigitScale(n)
	return (n + scale - 1) / scale * scale
}

// twoDigitScale is the power of ten below n's two leading digits.
func twoDigitScale(n int64) int64 {
	scale := int64(1)
	for n/scale >= 100 {
		scale *= 10
	}
	return scale
}
