package kernel

import (
	"fmt"
	"io"

	"github.com/proflens/proflens/plotting"
)

var maxNodesOpt = Option{Name: "maxnodes", Kind: KindNumber, Default: "2000",
	Doc: "most nodes drawn, fold marks included; lighter nodes fold into one \"+N more\" mark per parent"}

func init() {
	Register(&Command{
		Name:    "show",
		Summary: "Draw the current compacted tree: ProfVis's radial view or a tidy tree.",
		Usage:   "show [NAME] [layout=radial|tree] [maxnodes=N]",
		Doc: "The radial view is ProfVis's semi-circular fan: each compacted node is a sector of a ring, its " +
			"children share its angle on the next ring, and its area is proportional to its total (the rings " +
			"have equal areas, so outer rings are thinner). Hue families follow top-level names (packages), " +
			"neighbouring shades their classes or sub-packages. `layout=tree` draws a top-down tidy tree of the " +
			"same nodes, discs with areas proportional to totals. Hover a node for its totals, handle and the " +
			"commands that expand or compact it. `export FILE.svg` writes the picture to a file.",
		Options: []Option{
			{Name: "layout", Doc: "radial fan or top-down tree", Default: "radial", Values: []string{"radial", "tree"}},
			maxNodesOpt,
		},
		Examples:   []string{"load demo:profvis-toy as toy", "show", "level toy 99", "show toy layout=tree"},
		ProfileArg: true,
		Run:        func(c *Call) error { return runPicture(c, c.Opt("layout")) },
	})
	Register(&Command{
		Name:    "flame",
		Summary: "Draw the current compacted tree as an icicle (flame) graph, top-down or bottom-up.",
		Usage:   "flame [NAME] [order=name|weight] [inverted=true] [root=TARGET] [maxnodes=N]",
		Doc: "Width is proportional to total weight, one row per call depth, roots at the top. `order=name` " +
			"puts siblings in alphabetical order (as FlameGraph and pprof do), `order=weight` heaviest first. " +
			"`inverted=true` draws the bottom-up graph: the compacted nodes with self weight on the first row, " +
			"their callers below. `root=TARGET` zooms into one compacted node (a handle or a path of names).",
		Options: []Option{
			{Name: "order", Doc: "siblings' order", Default: "name", Values: []string{"name", "weight"}},
			{Name: "inverted", Doc: "draw the bottom-up graph (callers of the leaves)", Default: "false", Values: []string{"true", "false"}},
			{Name: "root", Doc: "zoom into this compacted node: a handle or a path of names", Kind: KindTarget},
			maxNodesOpt,
		},
		Examples:   []string{"load demo:profvis-toy as toy", "level 99", "flame", "flame toy order=weight inverted=true", `flame root="lib1.Whale.breath > lib1.Mammal.inhale"`},
		ProfileArg: true,
		Run:        func(c *Call) error { return runPicture(c, plotting.LayoutFlame) },
	})
	RegisterExport(".svg", func(c *Call, l *Loaded, path string) error {
		if l.Picture == nil {
			return fmt.Errorf("no picture of %s yet: run show or flame first", l.Name)
		}
		return writeFile(path, func(w io.Writer) error {
			_, err := w.Write(l.Picture)
			return err
		})
	})
}

// runPicture draws the current view of the call's profile in layout and
// keeps the SVG for export.
func runPicture(c *Call, layout string) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	o, err := pictureOptions(c, layout)
	if err != nil {
		return err
	}
	v := CompactedView(l)
	if c.Cmd.Name == "flame" && c.Has("root") {
		r, err := v.Resolve(c.Opt("root"))
		if err != nil {
			return c.Usagef("root=%s: %v", c.Opt("root"), err)
		}
		o.Roots = []int32{r}
	}
	o.Profile, o.Commands = l.Name, stepCommands(l.Name)
	o.More = maxNodesOpt.Name + "=N draws more"
	if d := l.Drawn; d != nil && d.Tree == v.Tree && d.Value == v.Value {
		o.Since = d
	}
	pic, err := plotting.Draw(v, o)
	if err != nil {
		return fmt.Errorf("%s %s: %w", c.Cmd.Name, l.Name, err)
	}
	l.Picture, l.Drawn = pic.SVG, v
	c.Picture(pic.SVG, pic.Text)
	return nil
}

// stepCommands returns, for a node's handle, the commands that expand and
// compact it in the named profile: the lines of a picture's tooltips.
func stepCommands(profile string) func(handle string) []string {
	return func(h string) []string {
		return []string{"expand " + profile + " " + h, "compact " + profile + " " + h}
	}
}

// pictureOptions reads the options common to show and flame.
func pictureOptions(c *Call, layout string) (plotting.Options, error) {
	o := plotting.Options{Layout: layout}
	n, err := c.Int("maxnodes")
	if err != nil {
		return o, err
	}
	if n < 2 {
		return o, c.Usagef("maxnodes=%d: draw at least 2 nodes", n)
	}
	o.MaxNodes = n
	if c.Cmd.Name == "flame" {
		o.Order = c.Opt("order")
		if o.Inverted, err = c.Bool("inverted"); err != nil {
			return o, err
		}
	}
	return o, nil
}
