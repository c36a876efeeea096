package kernel

import "github.com/proflens/proflens/analysis"

func init() {
	Register(&Command{
		Name:       "info",
		Summary:    "Summarise a loaded profile.",
		Doc:        "Shows the format, value types, samples, totals, duration, distinct stacks, call-tree nodes, whether samples are time-ordered, and the loader's warnings.",
		Examples:   []string{"load demo:profvis-toy as toy", "info toy"},
		ProfileArg: true,
		Run: func(c *Call) error {
			l, err := c.Loaded()
			if err != nil {
				return err
			}
			showInfo(c, l, l.Name)
			return nil
		},
	})
}

// showInfo displays the summary of l as a two-column table.
func showInfo(c *Call, l *Loaded, title string) {
	in := analysis.NewInfo(l.Profile, l.Tree)
	in.Default = l.Value
	t := &Table{Title: title, Columns: []string{"field", "value"}}
	for _, f := range in.Fields() {
		t.Rows = append(t.Rows, []any{f.Label, f.Value})
	}
	c.Table(t)
}
