package commands

import (
	"fmt"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var maxNodesOpt = kernel.Option{Name: "maxnodes", Kind: kernel.KindNumber, Default: "2000",
	Doc: "most nodes drawn, fold marks included; lighter nodes fold into one \"+N more\" mark per parent"}

// drawView draws the call's view with o, shows it, and keeps the SVG on the
// profile for export. It reads the call's maxnodes=. The picture outlines
// what changed since the profile's last picture of the same tree.
func drawView(c *kernel.Call, o plotting.Options) error {
	n, err := c.Int("maxnodes")
	if err != nil {
		return err
	}
	if n < 2 {
		return c.Usagef("maxnodes=%d: draw at least 2 nodes", n)
	}
	l := c.Profile()
	v, err := c.View()
	if err != nil {
		return err
	}
	o.MaxNodes, o.Profile, o.Commands = n, l.Name, stepCommands(l.Name)
	if c.Cmd.FullNames && l.State() == nil {
		o.Commands = nil // a view at full names, not the profile's state, whose handles expand reads
	}
	w := wholeOf(v.Tree, v.Value)
	if !v.Tree.Profile.IsDiff() {
		o.Total = w.Total
	}
	o.More = maxNodesOpt.Name + "=N draws more"
	if d := l.Drawn(); d != nil && d.Tree == v.Tree && d.Value == v.Value {
		o.Since = d
	}
	pic, err := plotting.Draw(v, o)
	if err != nil {
		return fmt.Errorf("%s %s: %w", c.Cmd.Name, l.Name, err)
	}
	l.SetPicture(pic.SVG, v)
	text := pic.Text
	if r := w.restSentence(); r != "" {
		text += r + "\n"
	}
	if ex := treeExplore(c, o); ex != nil {
		c.Explore(pic.SVG, text, ex)
		return nil
	}
	c.Picture(pic.SVG, text)
	return nil
}

// stepCommands returns, for a node's handle, the commands that expand and
// compact it in the named profile: the lines of a picture's tooltips.
func stepCommands(profile string) func(handle string) []string {
	return func(h string) []string {
		return []string{"expand " + profile + " " + h, "compact " + profile + " " + h}
	}
}
