package commands

import (
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var blueprintCommand = &kernel.Command{
	Name:    "blueprint",
	Summary: "Draw the Profiling Blueprint: one box per function, as tall as its time, as wide as its calls.",
	Doc: "The paper's blueprint is a graph of methods: with `by=function` (the default) one box per function (per " +
		"name of the view: full names until a level is set, as in `top` and `flame`; then the compacted names), its " +
		"height proportional to its total counted once per stack (a recursive function's time is not counted twice), " +
		"its width to all its calls (log scale: a recursive fib that ran 1,973 times is 1,973 calls wide). Each box is " +
		"drawn under the caller through which it takes the most time; its other callers reach it by grey edges bowing " +
		"out to the right, and a call of a function already on the stack at its full name (recursion, pattern F) by a " +
		"red one, the paper's crossing edge. `by=context` draws one box per call path instead (a function called from " +
		"two places is two boxes, each as wide as its calls from there). Callees go left to right in the order they " +
		"were first called where the recording has time order (else heaviest first). The drawing starts at the " +
		"program's entry: the start-up chain above it (the loader's and the C library's `_start`, " +
		"`__libc_start_main`, valgrind's `(below main)`, Go's `runtime.goexit` and `runtime.main`, the JVM's thread " +
		"starts) is one thin bar, named in the picture. Letters on the boxes are the patterns A-F of the paper's " +
		"Figure 2 (see `patterns`). The text form lists every box with its calls, and its callers when it has several.\n\n" +
		"Call counts come from the best source the profile has, named in the picture: events (Chrome traces, " +
		"speedscope evented profiles), callgrind (calls= lines), objects (heap profiles), contentions (mutex and " +
		"block profiles). Samples in time order (perf script, Go execution traces) give only the entries recovered " +
		"from consecutive stacks, lower bounds and not call counts: every box is then as wide as the others, unless " +
		"`counts=recovered` draws them, each said to be \"at least N entries, from samples\". A profile with none of " +
		"these is refused with what would give counts.\n\n" +
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
	Examples:  []string{"load demo:phasedemo as run", "blueprint", "level run 2", "blueprint run by=context counts=recovered height=600 width=100 focus=main.run"},
	Profiles:  1,
	Tree:      true,
	FullNames: true,
	Run:       runBlueprint,
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
