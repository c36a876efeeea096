package commands

import (
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var flameCommand = &kernel.Command{
	Name:    "flame",
	Summary: "Draw the current compacted tree as an icicle (flame) graph, top-down or bottom-up.",
	Doc: "Width is proportional to total weight, one row per call depth, roots at the top. `order=name` " +
		"puts siblings in alphabetical order (as FlameGraph and pprof do), `order=weight` heaviest first. " +
		"`inverted=true` draws the bottom-up graph: the compacted nodes with self weight on the first row, " +
		"their callers below. `root=TARGET` zooms into one compacted node (a handle, a path of names, a displayed name or a " +
		"unique end of it, or `re=REGEX`). " +
		"Until a level is set on the profile (`level`, `expand`, `compact`), the graph shows full names, as " +
		"`top` and `tree` do; then it draws the compacted tree that `view` and `show` show.",
	Options: []kernel.Option{
		{Name: "order", Doc: "siblings' order", Default: "name", Values: []string{"name", "weight"}},
		{Name: "inverted", Doc: "draw the bottom-up graph (callers of the leaves)", Default: "false", Values: []string{"true", "false"}},
		{Name: "root", Doc: "zoom into this compacted node: a handle, a path of names, a displayed name or a unique end of it, or re=REGEX", Kind: kernel.KindTarget, Complete: completeTarget},
		maxNodesOpt, kernel.InteractiveOption,
	},
	Examples: []string{"load demo:profvis-toy as toy", "level 99", "flame", "flame toy order=weight inverted=true",
		`flame root="lib1.Whale.breath > lib1.Mammal.inhale"`, "flame ignore=Muscle"},
	Profiles:  1,
	Tree:      true,
	FullNames: true,
	Run:       runFlame,
}

func runFlame(c *kernel.Call) error {
	o := plotting.Options{Layout: plotting.LayoutFlame, Order: c.Opt("order")}
	var err error
	if o.Inverted, err = c.Bool("inverted"); err != nil {
		return err
	}
	if c.Has("root") {
		v, err := c.View()
		if err != nil {
			return err
		}
		r, err := findOne(c, v, c.Opt("root"), "root="+c.Opt("root")+": ")
		if err != nil {
			return err
		}
		if r >= 0 { // root=all draws every root
			o.Roots = []int32{r}
		}
	}
	return drawView(c, o)
}
