package commands

import "github.com/proflens/proflens/kernel"

var infoCommand = &kernel.Command{
	Name:    "info",
	Summary: "Summarise a loaded profile.",
	Doc: "Shows the format, value types, samples, totals, duration, distinct stacks, call-tree nodes, " +
		"whether samples are time-ordered, the loader's warnings, the standing filter (see `filter`) " +
		"with what it keeps, and the granularities the file allows (functions, lines, files, addresses: " +
		"`granularity=` of the commands that read the tree), with the rows a report has at each. " +
		"Call-tree nodes and depth are those of the filtered tree.",
	Examples: []string{"load demo:profvis-toy as toy", "info toy"},
	Profiles: 1,
	Run: func(c *kernel.Call) error {
		l := c.Profile()
		t := infoTable(l, l.Name)
		t.Rows = append(t.Rows, []any{"granularity", granularities(l.Profile)})
		c.Table(t)
		return nil
	},
}
