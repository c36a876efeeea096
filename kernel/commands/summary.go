package commands

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

// showInfo displays the summary of l as a two-column table: what load and
// info answer. A standing filter gets a row saying what it keeps.
func showInfo(c *kernel.Call, l *kernel.Loaded, title string) {
	c.Table(infoTable(l, title))
}

// infoTable is the summary of l that showInfo displays.
func infoTable(l *kernel.Loaded, title string) *kernel.Table {
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
	return t
}

// granularities says at which granularities the profile's rows can be
// read (granularity=), with the rows at each, the profile's own the
// default: "functions 120 (default),
// lines 342, files 17; no addresses in the profile".
func granularities(p *analysis.Profile) string {
	var has, lacks []string
	for g, n := range p.Available() {
		name := analysis.Granularity(g).String()
		switch {
		case n == 0:
			lacks = append(lacks, name)
		case analysis.Granularity(g) == p.Granularity:
			has = append(has, fmt.Sprintf("%s %d (default)", name, n))
		default:
			has = append(has, fmt.Sprintf("%s %d", name, n))
		}
	}
	out := strings.Join(has, ", ")
	if len(lacks) > 0 {
		out += "; no " + strings.Join(lacks, " nor ") + " in the profile"
	}
	return out + " (rows at each; granularity= chooses)"
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
