package commands

import (
	"html"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

var clicksCommand = &kernel.Command{
	Name:    "clicks",
	Summary: "List the clicks made on the session's explorable views, as commands to paste into a cell.",
	Doc: "A click on an explorable view (`show interactive=true`, `set interactive=true`) stands for command " +
		"lines, shown under the view: `expand toy 8a70` for a click on a sector, `flame toy root=8a70` for a " +
		"zoom. A notebook run again does not click: pasting these lines into a cell after the view's makes " +
		"the run reproduce what the clicks did. Clicks stepped back over with a view's breadcrumbs are not listed.",
	Examples: []string{"clicks"},
	Run:      runClicks,
}

func runClicks(c *kernel.Call) error {
	lines := kernel.Clicks(c.Session)
	if len(lines) == 0 {
		c.Out.Display(textBundle("no clicks on any view of this session"), nil)
		return nil
	}
	text := "# " + kernel.CountOf(len(lines), "click") + " on this session's views, in order\n" + strings.Join(lines, "\n") + "\n"
	c.Out.Display(jupyter.Bundle{"text/plain": text, "text/html": "<pre>" + html.EscapeString(text) + "</pre>"}, nil)
	return nil
}
