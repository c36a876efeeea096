package commands

import (
	"fmt"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
)

var collapseRecursionCommand = &kernel.Command{
	Name:    "collapse-recursion",
	Summary: "Fold recursion out of the call tree, as the Firefox Profiler's transforms do; off undoes it.",
	Doc: "For a recursive function, the frames between its outermost and its innermost call on a stack go, and " +
		"the innermost call takes the outermost one's place: `A > B > C > B > D` becomes `A > B > D`, so a deep " +
		"recursion reads as one call. `direct=true` folds only a function calling itself (`B > B > B` becomes " +
		"`B`). TARGET is a function's full name, a compacted node (a handle, a path or a compacted name: the " +
		"functions of its members), or `all` (the default: every function). Like the standing filter, the " +
		"folding is part of the profile's tree, which every later command reads (views, pictures, phases, " +
		"diff); calls add up, `info` lists them and `collapse-recursion off` drops them all. The granularity " +
		"state carries over. Samples and totals do not change.",
	Args: []kernel.Arg{{Name: "TARGET", Kind: kernel.KindTarget, Optional: true, Complete: completeTarget,
		Doc: "a function's full name, a compacted node (its functions), all (the default), or off"}},
	Options:  []kernel.Option{{Name: "direct", Doc: "fold only direct recursion (a function calling itself)", Default: "false", Values: []string{"true", "false"}}, stepMaxOpt},
	Examples: []string{"load demo:phasedemo as run", "collapse-recursion", "collapse-recursion run off", "collapse-recursion runtime direct=true"},
	Profiles: 1,
	Run:      runCollapseRecursion,
}

func runCollapseRecursion(c *kernel.Call) error {
	l := c.Profile()
	direct, err := c.Bool("direct")
	if err != nil {
		return err
	}
	before := l.Tree().Len()
	r := analysis.Recursion{} // off
	switch target := c.Arg(0); target {
	case "off":
	case "", "all":
		r = l.Recursion().With(nil, true, direct)
	default:
		names, err := recursionNames(c, target)
		if err != nil {
			return err
		}
		r = l.Recursion().With(names, false, direct)
	}
	if err := l.SetRecursion(c.Ctx, r); err != nil {
		return err
	}
	folded := "no recursion folded"
	if !l.Recursion().IsZero() {
		folded = "recursion folded: " + l.Recursion().String()
	}
	return showNew(c, l, func(*compaction.View) string {
		return fmt.Sprintf("%s; call-tree nodes %d → %d", folded, before, l.Tree().Len())
	})
}

// recursionNames returns the functions a TARGET names: a function's full
// name, or the functions of the compacted nodes a handle, a path or a
// compacted name stands for.
func recursionNames(c *kernel.Call, target string) ([]string, error) {
	l := c.Profile()
	if slices.ContainsFunc(l.Profile.Frames, func(f analysis.Frame) bool { return f.Name == target }) {
		return []string{target}, nil
	}
	v, err := l.CompactedView(c.Ctx)
	if err != nil {
		return nil, err
	}
	var nodes []int32
	if i, err := v.Resolve(target); err == nil && i >= 0 {
		nodes = []int32{i}
	}
	for _, i := range v.Preorder() {
		if v.Nodes[i].Name == target {
			nodes = append(nodes, i)
		}
	}
	if len(nodes) == 0 {
		return nil, c.Usagef("no function or compacted node is named %q: give a function's full name (top lists them), a handle or a path (view lists them), all or off", target)
	}
	var names []string
	for _, i := range nodes {
		for _, m := range v.Nodes[i].Members {
			names = append(names, v.Tree.Name(m))
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
