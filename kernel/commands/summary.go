package commands

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

// showInfo displays the summary of l as a two-column table: what load and
// info answer. A standing filter gets a row saying what it keeps.
func showInfo(c *kernel.Call, l *kernel.Loaded, title string) {
	in := analysis.NewInfo(l.Profile, l.Tree())
	in.Default = l.Value
	t := &kernel.Table{Title: title, Columns: []string{"field", "value"}}
	for _, f := range in.Fields() {
		t.Rows = append(t.Rows, []any{f.Label, f.Value})
	}
	if !l.Filter().IsZero() {
		t.Rows = append(t.Rows, []any{"filter", l.Filter().String() + "; " + filterKeeps(l)})
	}
	if !l.Recursion().IsZero() {
		t.Rows = append(t.Rows, []any{"recursion folded", l.Recursion().String()})
	}
	c.Table(t)
}

// filterKeeps says how much of l its standing filter keeps, in the current
// value type: "keeps 1.20s of 2s (60.0%) in cpu".
func filterKeeps(l *kernel.Loaded) string {
	vt := l.Profile.ValueTypes[l.Value]
	var kept int64
	for _, r := range l.Tree().Roots {
		kept += l.Tree().Total[l.Value][r]
	}
	whole := l.Profile.Total(l.Value)
	return "keeps " + analysis.FormatValue(kept, vt.Unit) + " of " + analysis.FormatValue(whole, vt.Unit) +
		" (" + analysis.Percent(kept, whole) + ") in " + vt.Type
}
