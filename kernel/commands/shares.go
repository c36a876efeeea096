package commands

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// whole is the total that every percentage of weight a command prints
// divides by: the profile's report total (analysis.Profile.ReportTotal,
// pprof's: the |value| of every sample, before filters), and the part of
// it that no call path holds: samples with no frames, such as V8's idle
// time, and samples a filter emptied. In a difference of two profiles
// (a delta: some samples are negative) the total is the sum of the
// increases (Up) and the decreases (Down, as a positive amount), not the
// net change that info calls the profile's total.
type whole struct {
	Total, Rest int64
	Up, Down    int64
	vt          analysis.ValueType
}

// wholeOf returns the whole of tree t in value type v.
func wholeOf(t *analysis.Tree, v int) whole {
	w := whole{Total: t.Profile.ReportTotal(v), vt: t.Profile.ValueTypes[v]}
	if !t.Profile.IsDiff() {
		w.Rest = max(t.Unrooted[v], -t.Unrooted[v])
	}
	for i := range t.Profile.Samples {
		if x := t.Profile.Value(&t.Profile.Samples[i], v); x > 0 {
			w.Up += x
		} else {
			w.Down -= x
		}
	}
	if w.Down == 0 || w.Up+w.Down != w.Total {
		w.Up, w.Down = 0, 0 // no decreases, or a diff against a base
	}
	return w
}

// what names the total after its amount: ", the profile's total wall
// before filters", or in a difference of two profiles " before filters:
// the sum of the profile's increases (15) and decreases (17) in goroutine,
// whose net change is -2".
func (w whole) what() string {
	if w.Down == 0 {
		return ", the profile's total " + w.vt.Type + " before filters"
	}
	u := w.vt.Unit
	return fmt.Sprintf(" before filters: the sum of the profile's increases (%s) and decreases (%s) in %s, whose net change is %s",
		analysis.FormatValue(w.Up, u), analysis.FormatValue(w.Down, u), w.vt.Type, analysis.FormatValue(w.Up-w.Down, u))
}

// amount says x with its share: "2.27s (35.0%)".
func (w whole) amount(x int64) string {
	return fmt.Sprintf("%s (%s)", analysis.FormatValue(x, w.vt.Unit), analysis.Percent(x, w.Total))
}

// Which says what the percentages are of: "of 6.49s, the profile's
// total wall before filters", and what part of it is in no row (Rest),
// when any.
func (w whole) Which() string {
	return "of " + analysis.FormatValue(w.Total, w.vt.Unit) + w.what() + w.restNote()
}

// restNote says what part of the whole no call path holds, or "".
func (w whole) restNote() string {
	if w.Rest == 0 {
		return ""
	}
	return "; " + w.amount(w.Rest) + " of it is in samples with no frames (idle time in V8 and Chrome profiles, " +
		"or samples a filter left out), which no row shows"
}

// restSentence is restNote as a sentence of its own, or "".
func (w whole) restSentence() string {
	if w.Rest == 0 {
		return ""
	}
	return w.amount(w.Rest) + " of the profile's " + analysis.FormatValue(w.Total, w.vt.Unit) + " " + w.vt.Type +
		" is in samples with no frames (idle time in V8 and Chrome profiles, or samples a filter left out), which no node shows"
}
