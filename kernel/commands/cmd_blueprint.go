package commands

import (
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var blueprintCommand = &kernel.Command{
	Name:    "blueprint",
	Summary: "Draw the Profiling Blueprint of the current compacted tree: boxes as tall as their time, as wide as their calls.",
	Doc: "One box per compacted node: its height is proportional to its total (linear), its width to how many " +
		"times it was called (log scale); callers sit above their callees, edges run from the bottom of a " +
		"caller to the top of a callee, and callees go left to right in the order they were first called where " +
		"the recording has time order (else heaviest first). A recursive call is drawn as the paper's crossing " +
		"edge, from the caller back up to the box it calls again. Letters on the boxes are the patterns A-F of the " +
		"paper's Figure 2 (see `patterns`). Call counts come from the best source the profile has, named in the " +
		"picture: events (Chrome traces, speedscope evented profiles), callgrind (calls= lines), objects (heap " +
		"profiles), contentions (mutex and block profiles), or stack-diffs (samples in time order, a lower bound); " +
		"a profile with none is refused with what would give them.\n\n" +
		"`height=VALUE` is the value drawn as a box of full height (200 px; `10ms`, `2MB` or a number in the " +
		"profile's unit) and `width=COUNT` the count drawn at full width (120 px): give both to draw two profiles " +
		"on the same scales. `mutating=FILE` shades the boxes as the paper does, grey for functions that modify " +
		"their receiver or arguments and yellow for those that do not: the file uses the mapping syntax with the " +
		"entities `mutates` and `pure` (`mutates class Cart.add*`). Profiles do not record mutation, so the " +
		"paper's patterns G-I (non-altering delegation, chains, time-consuming delegation) are not looked for.",
	Options: append([]kernel.Option{
		{Name: "height", Doc: "the value drawn as a box of full height (10ms, 2MB, or a number in the profile's unit); default the tallest box"},
		{Name: "width", Doc: "the call count drawn as a box of full width (log scale); default the widest box, at least 1000", Kind: kernel.KindNumber},
		{Name: "mutating", Doc: "a file marking functions that mutate (`mutates class PATTERN`) and that do not (`pure class PATTERN`)", Kind: kernel.KindFile},
		maxNodesOpt,
	}, patternOptions...),
	Examples: []string{"load demo:phasedemo as run", "level run 2", "blueprint", "blueprint run height=600 width=100 focus=main.run"},
	Profiles: 1,
	Tree:     true,
	Run:      runBlueprint,
}

func runBlueprint(c *kernel.Call) error {
	bp, err := callBlueprint(c, c.Opt("mutating"))
	if err != nil {
		return err
	}
	if c.Has("height") {
		vt := c.Tree().Profile.ValueTypes[c.Value()]
		if bp.Height, err = parseAmount(c.Opt("height"), vt); err != nil {
			return c.Usagef("height=%s: %v: write e.g. height=10ms, height=2MB or a number of %s", c.Opt("height"), err, vt.Unit)
		}
	}
	if c.Has("width") {
		if bp.Width, err = kernel.ParseCount(c.Opt("width")); err != nil {
			return c.Usagef("width=%s: %v", c.Opt("width"), err)
		}
	}
	return drawView(c, plotting.Options{Layout: plotting.LayoutBlueprint, Blueprint: bp})
}
