package commands

import (
	"github.com/proflens/proflens/kernel"
)

var detachCommand = &kernel.Command{
	Name:    "detach",
	Summary: "End a live collection started with attach background=true.",
	Doc: "Stops the collection feeding NAME (the only one when NAME is left out): a window in flight is dropped, " +
		"everything gathered is kept in the attachment's profiles. Answers the final status, the phases timeline and " +
		"the per-kind summary, as attach does when it ends.",
	Args:     []kernel.Arg{{Name: "NAME", Doc: "the attachment's name (its main profile)", Kind: kernel.KindText, Optional: true}},
	Examples: []string{"attach demo:phases as bg background=true kinds=cpu", "detach bg"},
	Run:      runDetach,
}

func runDetach(c *kernel.Call) error {
	a, err := pickAttachment(c)
	if err != nil {
		return err
	}
	a.stop("detached")
	delete(attachments(c.Session), a.name)
	a.sync(c.Ctx, c.Session)
	st, _ := a.snapshot()
	c.Out.Display(statusBundle(a.name, st), nil)
	timeline := c.LiveDisplay()
	showTimeline(a, timeline, c.Session.Settings.Pictures)
	return finish(c, a, st, true)
}

// pickAttachment returns the attachment the call names, or the only one.
func pickAttachment(c *kernel.Call) (*attachment, error) {
	verb := c.Cmd.Name
	names := sortedKeys(attachments(c.Session))
	if name := c.Arg(0); name != "" {
		if a := attachments(c.Session)[name]; a != nil {
			return a, nil
		}
		return nil, c.Usagef("nothing is attached as %s; attached: %s", name, orNone(names))
	}
	if len(names) != 1 {
		return nil, c.Usagef("%d attachments (%s): name the one to %s", len(names), orNone(names), verb)
	}
	return attachments(c.Session)[names[0]], nil
}
