package commands

import (
	"context"
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
	find := func(v *compaction.View) (int32, error) { return findOne(c, v, c.Arg(0), "") }
	nv, whole, err := stepLevels(c.Ctx, c.Profile(), find, delta)
	if err != nil {
		return err
	}
	note := ""
	if x := nv.Check(); x != nil && whole {
		note = fmt.Sprintf("note: this view breaks %s: %s", x.Rule, x.Describe(nv))
	}
	return showView(c, nv, note)
}

// stepLevels takes one step of the levels of l's compacted node that find
// names in its view (-1: every node) and makes the result l's state; it
// returns the new view and whether the step was on all. A step that would
// break R1 or R2 is refused and l stays as it was. What expand and compact
// do, and what a click on an explorable view does for them.
func stepLevels(ctx context.Context, l *kernel.Loaded, find func(*compaction.View) (int32, error), delta int) (*compaction.View, bool, error) {
	v, err := l.CompactedView(ctx)
	if err != nil {
		return nil, false, err
	}
	t, err := find(v)
	if err != nil {
		return nil, false, err
	}
	ns, nv, err := compaction.StepContext(ctx, v, t, delta)
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if err != nil {
		return nil, false, &jupyter.Error{Name: "Refused", Value: err.Error()}
	}
	l.SetState(ns, nv)
	return nv, t < 0, nil
}

// handleOf finds the compacted node a click names by its handle, as the
// command line the click stands for (expand NAME HANDLE) finds it.
func handleOf(h string) func(*compaction.View) (int32, error) {
	return func(v *compaction.View) (int32, error) { return v.Resolve(h) }
}
