package kernel

import (
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

func init() {
	Register(&Command{
		Name:    "tree",
		Summary: "The call tree as an indented table (the TreeTable of the ProfVis paper).",
		Doc: "One row per call path, children by descending total. `depth` limits the levels shown " +
			"(a cut node shows [+N] for the nodes below it); siblings below `min` percent of the profile " +
			"total are folded into one \"… N more\" row. The full, uncompacted tree: see `view` for a " +
			"compacted one.",
		Options: []Option{
			{Name: "depth", Doc: "levels shown; 0 for all", Default: "0", Kind: KindNumber},
			{Name: "min", Doc: "hide nodes below this percentage of the total (1 or 1%)", Default: "1%", Kind: KindNumber},
			{Name: "value", Doc: "value type (default: the profile's)"},
		},
		Examples:   []string{"load demo:profvis-toy as toy", "tree", "tree toy depth=3 min=20%"},
		ProfileArg: true,
		Run:        runTree,
	})
}

func runTree(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	var o analysis.TreeOptions
	if o.Value, err = valueOpt(c, l); err != nil {
		return err
	}
	if o.Depth, err = c.Int("depth"); err != nil || o.Depth < 0 {
		return c.Usagef("depth=%s: write a number of levels, e.g. depth=4 (0 for all)", c.Opt("depth"))
	}
	if o.Min, err = c.Percent("min"); err != nil {
		return err
	}
	var text strings.Builder
	if err := analysis.WriteTreeText(&text, l.Tree, o); err != nil {
		return err
	}
	rows := analysis.TreeRows(l.Tree, o)
	b := treeTable(l, o.Value, rows).Bundle()
	b["text/plain"] = text.String()
	b["application/json"] = treeJSON(l, o.Value, rows)
	c.Out.Display(b, nil)
	return nil
}

// treeTable is the HTML form: names indented with no-break spaces.
func treeTable(l *Loaded, v int, rows []analysis.TreeRow) *Table {
	vt := l.Profile.ValueTypes[v]
	whole := l.Profile.Total(v)
	t := &Table{Columns: []string{"total", "%", "self", "name"}}
	for _, r := range rows {
		name := strings.Repeat("\u00a0\u00a0", r.Depth) + r.Name
		if r.Hidden > 0 && r.Node >= 0 {
			name += " [+" + strconv.Itoa(r.Hidden) + "]"
		}
		self := any(Cell{Text: analysis.FormatValue(r.Self, vt.Unit), Value: r.Self})
		if r.Node < 0 {
			self = nil
		}
		t.Rows = append(t.Rows, []any{Cell{Text: analysis.FormatValue(r.Total, vt.Unit), Value: r.Total},
			Cell{Text: analysis.Percent(r.Total, whole), Value: fraction(r.Total, whole)}, self, name})
	}
	return t
}

// treeJSON is the machine form: raw integers in the value type's unit;
// node is the call-tree node id, -1 for a row of folded siblings.
func treeJSON(l *Loaded, v int, rows []analysis.TreeRow) map[string]any {
	vt := l.Profile.ValueTypes[v]
	out := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		out = append(out, map[string]any{"node": r.Node, "depth": r.Depth, "name": r.Name,
			"total": r.Total, "self": r.Self, "hidden": r.Hidden})
	}
	return map[string]any{"value": vt.Type, "unit": vt.Unit, "total": l.Profile.Total(v), "rows": out}
}

// fraction returns part/whole, or 0 when whole is 0.
func fraction(part, whole int64) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole)
}
