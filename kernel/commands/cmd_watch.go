package commands

import (
	"context"
	"slices"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
)

var watchCommand = &kernel.Command{
	Name:    "watch",
	Summary: "Show several live attachments in one display, each with its status and phases, and their phases together.",
	Doc: "DYPER's several processes: each attachment (`attach … background=true`) collects from its own target within its " +
		"own budget; `watch` shows them in one display that updates in place until they all end or the cell is " +
		"interrupted (collection goes on; `detach` ends each). Per attachment: its status line and its phases timeline. " +
		"Together: the profile NAME (`together` unless `as NAME`), a series of the attachments' cpu windows side by side " +
		"in time: proflens's clock is cut into slots of the longest window, counted from the first window, and each slot " +
		"where some window starts is an interval holding those windows, each stack under a root frame named after its " +
		"attachment. Its values are the windows' own, nothing scaled. Its phases (JIVE, ω = 1 as for one attachment) are " +
		"found over names qualified by that root, `run: main.encode`, so the same function in two processes is two " +
		"names and each phase says which process it is in. The together profile is a profile of the session that every " +
		"command reads; it grows while `watch` runs, and `watch` again brings it up to date. On attachments that have " +
		"all ended, `watch` answers their final display at once, the same on every run.",
	Args: []kernel.Arg{{Name: "NAME", Doc: "two or more attachments, by name", Kind: kernel.KindText, Optional: true, Variadic: true,
		Complete: func(c *kernel.Call, prefix string) []string { return attachedNames(c.Session, prefix) }}},
	Examples: []string{"attach demo:phases as one budget=10% for=4s kinds=cpu background=true",
		"attach demo:agent as two budget=20% for=4s kinds=cpu background=true", "watch one two", "phases together",
		"top together n=4"},
	AllowAs: true,
	Run:     runWatch,
}

func runWatch(c *kernel.Call) error {
	as, err := watched(c)
	if err != nil {
		return err
	}
	name := c.As
	if name == "" {
		name = "together"
	}
	if l := c.Session.Get(name); l != nil && l.Profile.Format != togetherFormat {
		return c.Usagef("%s is a profile of the session already: name the profiles together with as NAME", name)
	}
	w := &watch{name: name, as: as, wake: make(chan struct{}, 1), together: c.LiveDisplay()}
	for _, a := range as {
		w.status = append(w.status, c.LiveDisplay())
		w.timeline = append(w.timeline, c.LiveDisplay())
		a.watchWith(w.wake)
		defer a.watchWith(nil)
	}
	w.placeholders()
	for !w.ended() && c.Ctx.Err() == nil {
		w.show(c.Ctx, c)
		select {
		case <-w.wake:
		case <-c.Ctx.Done():
		}
	}
	w.show(context.Background(), c) // the last windows, interrupted or not
	if l := c.Session.Get(name); l == w.loaded && l != nil && phasesKey.Get(l) != nil {
		c.Out.Display(phaseTable(l, phasesKey.Get(l)), nil)
	}
	return w.failed
}

// watched returns the attachments the call names: two or more, each
// attached once, each collecting cpu windows.
func watched(c *kernel.Call) ([]*attachment, error) {
	all := sortedKeys(attachments(c.Session))
	if len(c.Args) < 2 {
		return nil, c.Usagef("watch shows several attachments together: name two or more (attached: %s); attach NAME shows one", orNone(all))
	}
	var as []*attachment
	for i, n := range c.Args {
		a := attachments(c.Session)[n]
		switch {
		case a == nil && c.Session.Get(n) != nil:
			return nil, c.Usagef("%s is a profile, but nothing is attached as %s (attached: %s): watch shows live attachments", n, n, orNone(all))
		case a == nil:
			return nil, c.Usagef("nothing is attached as %s; attached: %s (attach … as %s background=true attaches it)", n, orNone(all), n)
		case slices.Contains(c.Args[:i], n):
			return nil, c.Usagef("%s is named twice: name each attachment once", n)
		case !slices.Contains(a.kinds, live.CPU):
			return nil, c.Usagef("%s collects %s: watch puts cpu windows together; attach with kinds=cpu,…", n, strings.Join(kindNames(a.kinds), ","))
		}
		as = append(as, a)
	}
	return as, nil
}
