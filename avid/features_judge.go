package avid

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Verdict says how evident a feature is in a recording, in the paper's
// words (Tables 1 and 2), made exact:
//   - "evident": its points are in the recording and every condition holds;
//   - "partial": its points are there, and every condition that fails asks
//     for at least some calls or objects, of which the recording shows
//     some: the feature's calls and allocations are visible, not their
//     magnitude;
//   - "not evident": otherwise (a point is missing, or a condition fails
//     with nothing to show).
type Verdict struct {
	Feature *Feature
	Level   string
	Missing string  // the point the recording lacks, "" when it has them
	Counts  []int64 // per condition, what the recording shows
}

// The verdicts' levels.
const (
	Evident    = "evident"
	Partial    = "partial"
	NotEvident = "not evident"
)

// Span is the time of a run that N% points divide: from its first event
// to its last, in nanoseconds since the profile's start.
type Span struct{ Start, End int64 }

// RunSpan returns the span of p's events (calls, samples in time order
// and memory events).
func RunSpan(p *analysis.Profile) Span {
	s := Span{Start: 1<<63 - 1, End: -1 << 63}
	see := func(t int64) { s.Start, s.End = min(s.Start, t), max(s.End, t) }
	_, steps := analysis.Steps(p)
	for st := range steps {
		see(st.Time)
	}
	_, ms := analysis.MemoryEvents(p)
	for _, m := range ms {
		see(m.Time)
	}
	if s.Start > s.End {
		return Span{}
	}
	return s
}

// Judge judges each of fs on p under em; span is the run's, for N% points
// (the full recording's, when p is a thinned one). Time is linear in p's
// steps and memory events, times the features' points and conditions.
func Judge(p *analysis.Profile, em *EntityMap, fs *Features, span Span) []Verdict {
	tl := newTimeline(p, em)
	entity := map[string]int32{}
	for i, n := range em.Names {
		entity[n] = int32(i)
	}
	out := make([]Verdict, len(fs.List))
	for i := range fs.List {
		out[i] = judge(tl, entity, &fs.List[i], span)
	}
	return out
}

// judge judges one feature on a timeline.
func judge(tl *timeline, entity map[string]int32, f *Feature, span Span) Verdict {
	v := Verdict{Feature: f, Level: NotEvident}
	from, okFrom := tl.point(entity, f.From, span)
	to, okTo := tl.point(entity, f.To, span)
	switch {
	case !okFrom:
		v.Missing = f.From.wordText
	case !okTo:
		v.Missing = f.To.wordText
	}
	if v.Missing != "" {
		return v
	}
	all, visible := true, true
	for _, c := range f.Conditions {
		n := tl.condition(entity, c, from, to)
		v.Counts = append(v.Counts, n)
		if !c.holds(n) {
			all = false
			visible = visible && c.lowerBound() && n > 0
		}
	}
	switch {
	case all:
		v.Level = Evident
	case visible:
		v.Level = Partial
	}
	return v
}

// point returns the position a point stands at, and whether the timeline
// has it.
func (tl *timeline) point(entity map[string]int32, p Point, span Span) (int, bool) {
	switch p.Kind {
	case "start":
		return -1, true
	case "end":
		return len(tl.items) - 1, true
	case "%":
		return tl.before(span.Start + int64(p.Percent/100*float64(span.End-span.Start))), true
	}
	from, okF := entity[p.Arc[0]]
	to, okT := entity[p.Arc[1]]
	if !okF || !okT {
		return 0, false
	}
	pos := tl.call(from, to, p.Ordinal)
	return pos, pos >= 0
}

// condition counts what c counts in positions (from, to].
func (tl *timeline) condition(entity map[string]int32, c Condition, from, to int) int64 {
	if c.What != "calls" {
		e, ok := entity[c.Entity]
		kind := allocItem
		if c.What == "freed" {
			kind = freeItem
		}
		if !ok {
			return 0
		}
		return tl.count(kind, e, from, to)
	}
	f, okF := entity[c.Arc[0]]
	t, okT := entity[c.Arc[1]]
	arc, ok := tl.arcs[[2]int32{f, t}]
	if !okF || !okT || !ok {
		return 0
	}
	return tl.count(callItem, arc, from, to)
}

// String says the verdict as the paper's tables do: its level, and what
// the recording shows of each condition (and, where it fails, what was
// wanted).
func (v Verdict) String() string {
	if v.Missing != "" {
		return fmt.Sprintf("%s %s: no %s", v.Feature.Name, v.Level, strings.Replace(v.Missing, "->", "→", 1))
	}
	var parts []string
	for i, c := range v.Feature.Conditions {
		s := fmt.Sprintf("%s %d", c.subject(), v.Counts[i])
		if !c.holds(v.Counts[i]) {
			s += fmt.Sprintf(" (want %s %d)", strings.Replace(strings.Replace(c.Op, ">=", "≥", 1), "<=", "≤", 1), c.N)
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("%s %s: %s", v.Feature.Name, v.Level, strings.Join(parts, ", "))
}

// Short is the verdict's level alone, as a table cell: "evident",
// "partial", "—".
func (v Verdict) Short() string {
	if v.Level == NotEvident {
		return "—"
	}
	return v.Level
}
