package commands

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

var topCommand = &kernel.Command{
	Name:    "top",
	Summary: "The functions with the most flat (or cumulative) value, like pprof's top.",
	Doc: "flat is the value of samples whose leaf is the function; cum the value of samples with the " +
		"function anywhere on the stack, counted once per sample under recursion. Percentages are of the " +
		"whole profile, before filters, as in pprof. `granularity=lines`, `files` or `addresses` lists source " +
		"lines, files or machine addresses instead of functions, as pprof's -lines, -files and -addresses (info says " +
		"which the profile has). JSON output gives raw integers in the value type's unit, and names as pprof prints them.",
	Options: []kernel.Option{
		{Name: "n", Doc: "rows to show (0 for all)", Default: "20", Kind: kernel.KindNumber},
		{Name: "by", Doc: "sort order", Default: "flat", Values: []string{"flat", "cum"}},
	},
	Examples: []string{"load demo:profvis-toy as toy", "top n=5", "top toy by=cum focus=Muscle hide=^lib1", "top toy granularity=files"},
	Profiles: 1,
	Tree:     true,
	Run:      runTop,
}

func runTop(c *kernel.Call) error {
	o := analysis.TopOptions{Value: c.Value(), ByCum: c.Opt("by") == "cum"}
	var err error
	if o.N, err = c.Int("n"); err != nil {
		return err
	}
	c.Out.Display(topBundle(c, analysis.NewTop(c.Tree(), o)), nil)
	return nil
}

// topNote is the line under the table: what the rows account for.
func topNote(c *kernel.Call, top *analysis.Top) string {
	u, w := top.Value.Unit, wholeOf(c.Tree(), c.Value())
	kept := fmt.Sprintf("%s of %s total (%s) in %s", analysis.FormatValue(top.Kept, u), analysis.FormatValue(top.Total, u),
		analysis.Percent(top.Kept, top.Total), top.Value.Type)
	if w.Down != 0 {
		kept = fmt.Sprintf("%s (%s) of %s%s", analysis.FormatValue(top.Kept, u), analysis.Percent(top.Kept, top.Total),
			analysis.FormatValue(top.Total, u), w.what())
	}
	return fmt.Sprintf("%s: showing %d of %d %s; %s%s", c.Subject(), len(top.Rows), top.Count, c.Granularity(), kept, w.restNote())
}

// topBundle renders a flat profile: the table as text and HTML, and JSON
// {"profile", "source", "value", "unit", "by", "filters", "total",
// "rows": [{"name", "flat", "cum"}]} with raw integers; filters lists the
// filters applied in order (the standing one, then the call's). The table
// shows names as every view does (analysis.Names.ShowFrame); the JSON gives
// them in full, as pprof names the rows at the call's granularity.
func topBundle(c *kernel.Call, top *analysis.Top) jupyter.Bundle {
	u := top.Value.Unit
	t := &kernel.Table{Columns: []string{"flat", "flat%", "sum%", "cum", "cum%", "name"}, Note: topNote(c, top)}
	rows := make([]map[string]any, 0, len(top.Rows))
	var sum int64
	names := c.Tree().Names
	if c.Profile().Mapping() != nil { // rows are frames, not the mapping's entities
		names = analysis.NewNames(c.Tree().Profile)
	}
	for _, r := range top.Rows {
		sum += r.Flat
		t.Rows = append(t.Rows, []any{kernel.ValueCell(r.Flat, u), kernel.PercentCell(r.Flat, top.Total), kernel.PercentCell(sum, top.Total),
			kernel.ValueCell(r.Cum, u), kernel.PercentCell(r.Cum, top.Total), names.ShowFrame(r.Frame)})
		rows = append(rows, map[string]any{"name": r.Name, "flat": r.Flat, "cum": r.Cum})
	}
	b := t.Bundle()
	l := c.Profile()
	b["application/json"] = map[string]any{"profile": l.Name, "source": l.Profile.Source, "value": top.Value.Type,
		"unit": u, "by": c.Opt("by"), "filters": c.Filters(), "total": top.Total, "rows": rows}
	if l.DiffBase != "" {
		b["application/json"].(map[string]any)["diff_base"] = l.DiffBase
	}
	return b
}
