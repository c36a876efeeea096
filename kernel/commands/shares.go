package commands

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

// whole is the total that every percentage of weight a command prints
// divides by: the profile's report total (analysis.Profile.ReportTotal,
// pprof's: the |value| of every sample, before filters), and the part of
// it that no call path holds: samples with no frames, such as V8's idle
// time, and samples a filter emptied.
type whole struct {
	Total, Rest int64
	vt          analysis.ValueType
}

// wholeOf returns the whole of tree t in value type v.
func wholeOf(t *analysis.Tree, v int) whole {
	w := whole{Total: t.Profile.ReportTotal(v), vt: t.Profile.ValueTypes[v]}
	if !t.Profile.IsDiff() {
		w.Rest = max(t.Unrooted[v], -t.Unrooted[v])
	}
	return w
}

// amount says x with its share: "2.27s (35.0%)".
func (w whole) amount(x int64) string {
	return fmt.Sprintf("%s (%s)", analysis.FormatValue(x, w.vt.Unit), analysis.Percent(x, w.Total))
}

// Which says what the percentages are of: "of 6.49s, the profile's
// total wall before filters", and what part of it is in no row (Rest),
// when any.
func (w whole) Which() string {
	return "of " + analysis.FormatValue(w.Total, w.vt.Unit) + ", the profile's total " + w.vt.Type + " before filters" + w.restNote()
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
