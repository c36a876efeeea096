package commands

import (
	"context"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
)

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
func (w *watch) show(ctx context.Context, c *kernel.Call) {
	cpu := 0
	for i, a := range w.as {
		a.charge(live.ThreadCPU(func() { a.sync(ctx, c.Session) }))
		if st, _ := a.snapshot(); st.Target != "" { // before its first status, the placeholder stays
			w.status[i].Show(statusBundle(a.name, st))
		}
		showTimeline(a, w.timeline[i], c.Session.Settings.Pictures)
		cpu += len(a.parts[live.CPU])
	}
	if cpu == 0 || cpu == w.cpu {
		return
	}
	grown := false
	spent := live.ThreadCPU(func() { grown = w.grow(ctx, c) })
	for _, a := range w.as {
		a.charge(spent / float64(len(w.as)))
	}
	if !grown {
		return // interrupted: the next show grows it
	}
	showPhases(w.loaded, w.together, c.Session.Settings.Pictures)
	w.cpu = cpu
}

// grow rebuilds the together profile and its phases, and reports whether
// it finished. An interrupt leaves it for the next show; another error is
// kept until a later grow succeeds, and ends the cell as its error.
func (w *watch) grow(ctx context.Context, c *kernel.Call) bool {
	p, err := together(w.name, w.as)
	if w.failed = err; err != nil {
		return true
	}
	p.Source = w.name + " (live cpu of " + attachmentNames(w.as) + ")"
	// Loaded afresh each time: a window that arrives late joins an earlier
	// slot, so the profile's frames and stacks do not extend the last one's
	// id for id, as Regrow needs. Nothing else changes it while watch runs.
	w.loaded = kernel.NewLoaded(w.name, p, analysis.NewTree(p))
	c.Session.Add(w.loaded)
	_, err = livePhases(ctx, c.Session, w.loaded, "")
	if ctx.Err() != nil {
		return false
	}
	w.failed = err
	return true
}

func attachmentNames(as []*attachment) string {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}
