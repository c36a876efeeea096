package kernel

import (
	"fmt"
	"regexp"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel/jupyter"
)

func init() {
	Register(&Command{
		Name:    "top",
		Summary: "The functions with the most flat (or cumulative) value, like pprof's top.",
		Doc: "flat is the value of samples whose leaf is the function; cum the value of samples with the " +
			"function anywhere on the stack, counted once per sample under recursion. Percentages are of the " +
			"whole profile. As in pprof, `focus` keeps samples with a frame matching, `ignore` drops samples " +
			"with a frame matching, `hide` removes matching frames from the stacks; regular expressions " +
			"match a frame's name or file. JSON output gives raw integers in the value type's unit.",
		Options: []Option{
			{Name: "n", Doc: "rows to show (0 for all)", Default: "20", Kind: KindNumber},
			{Name: "by", Doc: "sort order", Default: "flat", Values: []string{"flat", "cum"}},
			{Name: "focus", Doc: "keep only samples with a frame matching this regexp"},
			{Name: "ignore", Doc: "drop samples with a frame matching this regexp"},
			{Name: "hide", Doc: "remove frames matching this regexp from the stacks"},
			{Name: "value", Doc: "value type (default: the profile's)"},
		},
		Examples:   []string{"load demo:profvis-toy as toy", "top n=5", "top toy by=cum focus=Muscle hide=^lib1"},
		ProfileArg: true,
		Run:        runTop,
	})
}

func runTop(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	o := analysis.TopOptions{ByCum: c.Opt("by") == "cum"}
	if o.N, err = c.Int("n"); err != nil {
		return err
	}
	if o.Value, err = valueOpt(c, l); err != nil {
		return err
	}
	for _, re := range []struct {
		name string
		dst  **regexp.Regexp
	}{{"focus", &o.Focus}, {"ignore", &o.Ignore}, {"hide", &o.Hide}} {
		if *re.dst, err = c.Regexp(re.name); err != nil {
			return err
		}
	}
	top := analysis.NewTop(l.Tree, o)
	c.Out.Display(topBundle(top, topNote(l, top)), nil)
	return nil
}

// topNote is the line under the table: what the rows account for.
func topNote(l *Loaded, top *analysis.Top) string {
	u := top.Value.Unit
	return fmt.Sprintf("%s: showing %d of %d functions; %s of %s total (%s) in %s",
		l.Name, len(top.Rows), top.Count, analysis.FormatValue(top.Kept, u), analysis.FormatValue(top.Total, u),
		analysis.Percent(top.Kept, top.Total), top.Value.Type)
}

// topBundle renders a flat profile: the table as text and HTML, and JSON
// {"value", "unit", "total", "rows": [{"name", "flat", "cum"}]} with raw
// integers.
func topBundle(top *analysis.Top, note string) jupyter.Bundle {
	u := top.Value.Unit
	t := &Table{Columns: []string{"flat", "flat%", "sum%", "cum", "cum%", "name"}, Note: note}
	rows := make([]map[string]any, 0, len(top.Rows))
	pct := func(x int64) Cell { return Cell{Text: analysis.Percent(x, top.Total), Value: fraction(x, top.Total)} }
	var sum int64
	for _, r := range top.Rows {
		sum += r.Flat
		t.Rows = append(t.Rows, []any{
			Cell{Text: analysis.FormatValue(r.Flat, u), Value: r.Flat},
			pct(r.Flat), pct(sum),
			Cell{Text: analysis.FormatValue(r.Cum, u), Value: r.Cum},
			pct(r.Cum),
			r.Name,
		})
		rows = append(rows, map[string]any{"name": r.Name, "flat": r.Flat, "cum": r.Cum})
	}
	b := t.Bundle()
	b["application/json"] = map[string]any{"value": top.Value.Type, "unit": u, "total": top.Total, "rows": rows}
	return b
}
