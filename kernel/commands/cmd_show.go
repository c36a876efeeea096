package commands

import (
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var showCommand = &kernel.Command{
	Name:    "show",
	Summary: "Draw the current compacted tree: ProfVis's radial view or a tidy tree.",
	Doc: "The radial view is ProfVis's semi-circular fan: each compacted node is a sector of a ring, its " +
		"children share its angle on the next ring, and its area is proportional to its total (the rings " +
		"have equal areas, so outer rings are thinner). Hue families follow top-level names (packages), " +
		"neighbouring shades their classes or sub-packages. `layout=tree` draws a top-down tidy tree of the " +
		"same nodes, discs with areas proportional to totals. Hover a node for its totals, handle and the " +
		"commands that expand or compact it. `export FILE.svg` writes the picture to a file.",
	Options: []kernel.Option{
		{Name: "layout", Doc: "radial fan or top-down tree", Default: "radial", Values: []string{"radial", "tree"}},
		maxNodesOpt, kernel.InteractiveOption,
	},
	Examples: []string{"load demo:profvis-toy as toy", "show", "level toy 99", "show toy layout=tree", "show focus=Muscle hide=^lib1"},
	Profiles: 1,
	Tree:     true,
	Run: func(c *kernel.Call) error {
		return drawView(c, plotting.Options{Layout: c.Opt("layout")})
	},
}
