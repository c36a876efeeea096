package commands

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

var filterCommand = &kernel.Command{
	Name:    "filter",
	Summary: "Keep focus, ignore, hide, thread, process and tag filters on a profile as a standing filter that every later command respects.",
	Doc: "The options mean what they mean in every command that reads a tree, and in pprof: " +
		"focus keeps the samples with a frame matching, ignore drops the samples with a frame matching, " +
		"hide removes the matching frames from the stacks; thread and process keep the samples of the " +
		"threads (processes) whose name matches or whose id is given (see `threads`); tagfocus and " +
		"tagignore keep or drop samples by their labels, as pprof's -tagfocus and -tagignore (see `info`). " +
		"Given options replace those of the standing " +
		"filter, the others stay (`hide=` with nothing after it drops hide alone); `filter off` drops it " +
		"all, and `filter` alone shows it. A command's own options apply on top of it.\n\n" +
		"Totals and percentages stay those of the whole profile, as in pprof. The granularity state carries " +
		"over: each call-tree node keeps the level of its counterpart before the change. `info` shows the " +
		"filter and what it keeps; `export` writes the filtered profile.",
	Args: []kernel.Arg{{Name: "off", Doc: "drop the standing filter", Optional: true,
		Complete: func(c *kernel.Call, prefix string) []string { return []string{"off"} }}},
	Options:  kernel.FilterOptions,
	Examples: []string{"load demo:profvis-toy as toy", "filter focus=Muscle hide=^lib1", "top", "filter toy off", "filter"},
	Profiles: 1,
	Run:      runFilter,
}

func runFilter(c *kernel.Call) error {
	l := c.Profile()
	switch {
	case c.Arg(0) == "off" && len(c.Opts) > 0:
		return c.Usagef("off drops the whole filter: give off or options, not both")
	case c.Arg(0) == "off":
		l.SetFilter(analysis.Filter{})
	case c.Arg(0) != "":
		return c.Usagef("%q: write off, or focus=, ignore=, hide=, thread=, process=, tagfocus= and tagignore= options", c.Arg(0))
	case len(c.Opts) > 0:
		given, err := c.ReadFilter()
		if err != nil {
			return err
		}
		f := l.Filter()
		for _, o := range []struct {
			name string
			set  func()
		}{{"focus", func() { f.Focus = given.Focus }}, {"ignore", func() { f.Ignore = given.Ignore }},
			{"hide", func() { f.Hide = given.Hide }}, {"thread", func() { f.Thread = given.Thread }},
			{"process", func() { f.Process = given.Process }}, {"tagfocus", func() { f.TagFocus = given.TagFocus }},
			{"tagignore", func() { f.TagIgnore = given.TagIgnore }}} {
			if c.Has(o.name) {
				o.set()
			}
		}
		if f.String() != l.Filter().String() {
			l.SetFilter(f)
		}
	}
	if l.Filter().IsZero() {
		c.Printf("%s: no filter\n", l.Name)
		return nil
	}
	c.Printf("%s: filter %s; %s\n", l.Name, l.Filter().String(), filterKeeps(l))
	return nil
}
