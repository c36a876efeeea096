package commands

import "github.com/proflens/proflens/kernel"

var infoCommand = &kernel.Command{
	Name:    "info",
	Summary: "Summarise a loaded profile.",
	Doc: "Shows the format, value types, samples, totals, duration, distinct stacks, call-tree nodes, " +
		"whether samples are time-ordered, the loader's warnings, and the standing filter (see `filter`) " +
		"with what it keeps. Call-tree nodes and depth are those of the filtered tree.",
	Examples: []string{"load demo:profvis-toy as toy", "info toy"},
	Profiles: 1,
	Run: func(c *kernel.Call) error {
		showInfo(c, c.Profile(), c.Profile().Name)
		return nil
	},
}
