package commands

import (
	"fmt"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// expand and compact are ProfVis's local interactions: one step of the
// levels of one compacted node's members.
var (
	expandCommand = stepCommand("expand",
		"Raise by one the level of every member of a compacted node (ProfVis's local expansion).", +1,
		[]string{"load demo:profvis-toy as toy", "level 1", `expand "lib1 > lib2"`})
	compactCommand = stepCommand("compact",
		"Lower by one the level of every member of a compacted node (ProfVis's local compaction).", -1,
		[]string{"load demo:profvis-toy as toy", "level 99", `compact "lib1.Whale.breath > lib1.Mammal.inhale"`})
)

func stepCommand(name, summary string, delta int, examples []string) *kernel.Command {
	return &kernel.Command{
		Name:    name,
		Summary: summary,
		Doc: "TARGET `all` moves every call-tree node by one; `expand all` and `compact all` are always taken " +
			"and undo each other. A step on one node whose result would break R1 (a child coarser than its " +
			"parent) or R2 (a node absorbing a name two levels finer) is refused with a message saying what to " +
			"do first, and the view stays as it was; the rules concern names that compaction shortened, not a " +
			"function shown by its full name.",
		Args:     []kernel.Arg{targetArg},
		Options:  []kernel.Option{reOpt, stepMaxOpt},
		Examples: examples,
		Profiles: 1,
		Run:      func(c *kernel.Call) error { return runStep(c, delta) },
	}
}

func runStep(c *kernel.Call, delta int) error {
	l := c.Profile()
	v, err := l.CompactedView(c.Ctx)
	if err != nil {
		return err
	}
	target, err := findOne(c, v, c.Arg(0), "")
	if err != nil {
		return err
	}
	ns, nv, err := compaction.StepContext(c.Ctx, v, target, delta)
	if c.Ctx.Err() != nil {
		return c.Ctx.Err()
	}
	if err != nil {
		return &jupyter.Error{Name: "Refused", Value: err.Error()}
	}
	l.SetState(ns, nv)
	note := ""
	if x := nv.Check(); x != nil && target < 0 {
		note = fmt.Sprintf("note: this view breaks %s: %s", x.Rule, x.Describe(nv))
	}
	return showView(c, nv, note)
}
