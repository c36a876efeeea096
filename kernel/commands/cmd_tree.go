package commands

import (
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

var treeCommand = &kernel.Command{
	Name:    "tree",
	Summary: "The call tree as an indented table (the TreeTable of the ProfVis paper).",
	Doc: "One row per call path, children by descending total. `depth` limits the levels shown " +
		"(a cut node shows [+N] for the nodes below it); siblings below `min` percent of the profile " +
		"total are folded into one \"… N more\" row. The full, uncompacted tree: see `view` for a " +
		"compacted one. Percentages are of the profile's total, before filters (pprof's total), which the " +
		"last line gives, with the part no row shows (samples with no frames: idle time, or samples a filter left out).",
	Options: []kernel.Option{
		{Name: "depth", Doc: "levels shown; 0 for all", Default: "0", Kind: kernel.KindNumber},
		{Name: "min", Doc: "hide nodes below this percentage of the total (1 or 1%)", Default: "1%", Kind: kernel.KindNumber},
	},
	Examples: []string{"load demo:profvis-toy as toy", "tree", "tree toy depth=3 min=20%", "tree focus=Muscle hide=^lib1"},
	Profiles: 1,
	Tree:     true,
	Run:      runTree,
}

func runTree(c *kernel.Call) error {
	o := analysis.TreeOptions{Value: c.Value()}
	var err error
	if o.Depth, err = c.Int("depth"); err != nil || o.Depth < 0 {
		return c.Usagef("depth=%s: write a number of levels, e.g. depth=4 (0 for all)", c.Opt("depth"))
	}
	if o.Min, err = c.Percent("min"); err != nil {
		return err
	}
	t := c.Tree()
	var text strings.Builder
	if err := analysis.WriteTreeText(&text, t, o); err != nil {
		return err
	}
	rows, w := analysis.TreeRows(t, o), wholeOf(t, o.Value)
	tab := treeTable(t, o.Value, rows)
	tab.Note = c.Subject() + ": percentages are " + w.Which()
	b := tab.Bundle()
	b["text/plain"] = text.String() + tab.Note + "\n"
	b["application/json"] = treeJSON(t, o.Value, rows)
	c.Out.Display(b, nil)
	return nil
}

// treeTable is the HTML form: names indented with no-break spaces.
func treeTable(t *analysis.Tree, v int, rows []analysis.TreeRow) *kernel.Table {
	unit, whole := t.Profile.ValueTypes[v].Unit, t.Profile.ReportTotal(v)
	tab := &kernel.Table{Columns: []string{"total", "%", "self", "name"}}
	for _, r := range rows {
		name := strings.Repeat("\u00a0\u00a0", r.Depth) + r.Name
		if r.Hidden > 0 && r.Node >= 0 {
			name += " [+" + strconv.Itoa(r.Hidden) + "]"
		}
		self := any(kernel.ValueCell(r.Self, unit))
		if r.Node < 0 {
			self = nil
		}
		tab.Rows = append(tab.Rows, []any{kernel.ValueCell(r.Total, unit), kernel.PercentCell(r.Total, whole), self, name})
	}
	return tab
}

// treeJSON is the machine form: raw integers in the value type's unit,
// names in full as the profile spells them; node is the call-tree node id,
// -1 for a row of folded siblings.
func treeJSON(t *analysis.Tree, v int, rows []analysis.TreeRow) map[string]any {
	vt := t.Profile.ValueTypes[v]
	out := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		name := r.Name
		if r.Node >= 0 {
			name = t.Name(r.Node)
		}
		out = append(out, map[string]any{"node": r.Node, "depth": r.Depth, "name": name,
			"total": r.Total, "self": r.Self, "hidden": r.Hidden})
	}
	return map[string]any{"value": vt.Type, "unit": vt.Unit, "total": t.Profile.ReportTotal(v), "rows": out}
}
