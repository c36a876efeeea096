package commands

import (
	"context"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
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
		w.show(c, c.Ctx)
		select {
		case <-w.wake:
		case <-c.Ctx.Done():
		}
	}
	w.show(c, context.Background()) // the last windows, interrupted or not
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

// watch is one watch cell's displays: per attachment its status and
// phases timeline, then the together profile's timeline.
type watch struct {
	name     string
	as       []*attachment
	wake     chan struct{}
	status   []*kernel.LiveDisplay
	timeline []*kernel.LiveDisplay
	together *kernel.LiveDisplay
	loaded   *kernel.Loaded // the together profile watch made
	cpu      int            // cpu windows it holds
	failed   error          // why the together profile could not be made
}

// placeholders shows every display in its place before any has data, so
// that their order does not depend on which comes first.
func (w *watch) placeholders() {
	for i, a := range w.as {
		w.status[i].Show(textBundle(a.name + ": waiting for its status"))
		w.timeline[i].Show(textBundle("phases of " + a.name + ": none found yet"))
	}
	w.together.Show(textBundle("phases of " + w.name + ": none found yet"))
}

// ended reports whether every attachment has ended.
func (w *watch) ended() bool {
	for _, a := range w.as {
		if _, ended := a.snapshot(); !ended {
			return false
		}
	}
	return true
}

// show takes the attachments' windows into their profiles, grows the
// together profile when some came, and shows everything. The CPU time it
// takes on each attachment is charged to it (on a target on this
// machine), the together profile's shared equally.
func (w *watch) show(c *kernel.Call, ctx context.Context) {
	cpu := 0
	for i, a := range w.as {
		a.charge(live.ThreadCPU(func() { a.sync(ctx, c.Session) }))
		st, _ := a.snapshot()
		w.status[i].Show(statusBundle(a.name, st))
		showTimeline(a, w.timeline[i], c.Session.Settings.Pictures)
		cpu += len(a.parts[live.CPU])
	}
	if cpu == 0 || cpu == w.cpu {
		return
	}
	spent := live.ThreadCPU(func() { w.grow(c, ctx) })
	for _, a := range w.as {
		a.charge(spent / float64(len(w.as)))
	}
	if w.loaded != nil && phasesKey.Get(w.loaded) != nil {
		if svg, err := timelinePicture(w.name, phasesKey.Get(w.loaded)); err == nil {
			w.together.Show(kernel.PictureBundle(svg, timelineText(w.name, phasesKey.Get(w.loaded)), c.Session.Settings.Pictures))
		}
	}
	w.cpu = cpu
}

// grow rebuilds the together profile and its phases. An interrupt leaves
// it for the next show; another error is kept, and ends the cell as its
// error.
func (w *watch) grow(c *kernel.Call, ctx context.Context) {
	p, err := together(w.name, w.as)
	if err != nil {
		w.failed = err
		return
	}
	p.Source = w.name + " (live cpu of " + attachmentNames(w.as) + ")"
	if w.loaded == nil || c.Session.Get(w.name) != w.loaded {
		w.loaded = kernel.NewLoaded(w.name, p, analysis.NewTree(p))
		c.Session.Add(w.loaded)
	} else {
		w.loaded.Regrow(p)
	}
	if _, err := livePhases(ctx, c.Session, w.loaded, ""); err != nil && ctx.Err() == nil {
		w.failed = err
	}
}

func attachmentNames(as []*attachment) string {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}
