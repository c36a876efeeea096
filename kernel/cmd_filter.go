package kernel

import (
	"regexp"

	"github.com/proflens/proflens/analysis"
)

var filterCommand = &Command{
	Name:    "filter",
	Summary: "Keep focus, ignore and hide on a profile as a standing filter that every later command respects.",
	Doc: "`focus`, `ignore` and `hide` mean what they mean in every command that reads a tree, and in pprof: " +
		"focus keeps the samples with a frame matching, ignore drops the samples with a frame matching, " +
		"hide removes the matching frames from the stacks. Given options replace those of the standing " +
		"filter, the others stay (`hide=` with nothing after it drops hide alone); `filter off` drops it " +
		"all, and `filter` alone shows it. A command's own focus, ignore and hide apply on top of it.\n\n" +
		"Totals and percentages stay those of the whole profile, as in pprof. The granularity state carries " +
		"over: each call-tree node keeps the level of its counterpart before the change. `info` shows the " +
		"filter and what it keeps; `export` writes the filtered profile.",
	Args: []Arg{{Name: "off", Doc: "drop the standing filter", Optional: true,
		Complete: func(c *Call, prefix string) []string { return []string{"off"} }}},
	Options:  []Option{focusOpt, ignoreOpt, hideOpt},
	Examples: []string{"load demo:profvis-toy as toy", "filter focus=Muscle hide=^lib1", "top", "filter toy off", "filter"},
	Profiles: 1,
	Run:      runFilter,
}

func runFilter(c *Call) error {
	l := c.Profile()
	switch {
	case c.Arg(0) == "off" && len(c.Opts) > 0:
		return c.Usagef("off drops the whole filter: give off or options, not both")
	case c.Arg(0) == "off":
		setFilter(l, analysis.Filter{})
	case c.Arg(0) != "":
		return c.Usagef("%q: write off, or focus=, ignore= and hide= options", c.Arg(0))
	case len(c.Opts) > 0:
		f := l.Filter
		for _, o := range []struct {
			name string
			dst  **regexp.Regexp
		}{{"focus", &f.Focus}, {"ignore", &f.Ignore}, {"hide", &f.Hide}} {
			if !c.Has(o.name) {
				continue
			}
			re, err := c.Regexp(o.name)
			if err != nil {
				return err
			}
			*o.dst = re
		}
		if f.String() != l.Filter.String() {
			setFilter(l, f)
		}
	}
	if l.Filter.IsZero() {
		c.Printf("%s: no filter\n", l.Name)
		return nil
	}
	c.Printf("%s: filter %s; %s\n", l.Name, l.Filter.String(), filterKeeps(l))
	return nil
}
