package commands

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/live"
)

// statusLine says where an attachment stands: what is guaranteed (the
// cost accounted, within the budget) and what is estimated (the
// slowdown); then, each on a line of its own, what the kinds asked for can
// use when it is less than the budget, the kinds still waiting for their
// first window (when they will come, or that the budget never pays for
// them and what would), and the triggers.
func statusLine(name string, st live.Status) string {
	state := "collecting"
	switch {
	case st.Stopped != "":
		state = "stopped: " + st.Stopped
	case st.Paused:
		state = "paused"
	}
	own := ""
	if st.Observer > 0 {
		own = " (of which proflens's own work on its windows " + live.Percent(shareOf(st.Observer, st.Elapsed.Seconds())) + ")"
	}
	lines := []string{fmt.Sprintf("%s ← %s (%s): %d windows in %.1fs, duty cycle %s; cost accounted %s of %s (guaranteed)%s; "+
		"estimated slowdown %s; %s", name, st.Target, st.Server, st.Windows, st.Elapsed.Seconds(), live.Percent(st.DutyCycle()),
		live.Percent(st.Cost()), budgetWords(st), own, live.Percent(st.EstimatedSlowdown()), state)}
	if st.Stopped == "" && st.Usable > 0 && st.Usable < 0.9*st.Budget {
		lines = append(lines, fmt.Sprintf("  the kinds asked for use at most %s, each once a window: the rest of the budget stays unspent", live.Percent(st.Usable)))
	}
	if st.AgentBudget > 0 && st.Budget > st.AgentBudget && st.Stopped == "" {
		lines = append(lines, fmt.Sprintf("  the agent keeps its own budget of %s (the one its program started it with) and refuses what would pass it: "+
			"at most %s of the %s will be spent", live.Percent(st.AgentBudget), live.Percent(st.AgentBudget), live.Percent(st.Budget)))
	}
	for _, k := range st.Kinds {
		if k.Waiting > 0 && st.Stopped == "" {
			when := "when its credit allows"
			if k.WaitNext >= 0 {
				when = fmt.Sprintf("in about %v", (k.WaitNext - st.Elapsed).Round(time.Second))
			}
			lines = append(lines, fmt.Sprintf("  %s: %d triggered collection%s waiting for credit, the first %s", k.Kind, k.Waiting, plural(k.Waiting), when))
		}
		switch {
		case k.Never != "" && k.Windows == 0:
			lines = append(lines, fmt.Sprintf("  %s: never at this budget: %s", k.Kind, k.Never))
		case k.Windows == 0 && k.Next >= 0 && st.Stopped == "":
			lines = append(lines, fmt.Sprintf("  %s: first window in about %v", k.Kind, (k.Next-st.Elapsed).Round(time.Second)))
		}
	}
	for i, tr := range st.Triggers {
		fired := "not fired yet"
		if tr.Fired > 0 {
			fired = fmt.Sprintf("fired %d× (last at %.1fs: %s)", tr.Fired, tr.Last.Seconds(), tr.Why)
		}
		if tr.Deaf != "" {
			fired += fmt.Sprintf("; cannot fire while %s is not collected", tr.Deaf)
		}
		lines = append(lines, fmt.Sprintf("  trigger %d, %s: %s", i+1, tr.Trigger, fired))
	}
	return strings.Join(lines, "\n")
}

// budgetWords names the budget: "a 1% budget", or, when it changed while
// collecting, what the budgets allowed over the time attached and the
// budget now.
func budgetWords(st live.Status) string {
	if len(st.Changes) == 0 {
		return "a " + live.Percent(st.Budget) + " budget"
	}
	last := st.Changes[len(st.Changes)-1]
	return fmt.Sprintf("the %s the budgets allowed (%s since %.1fs)", live.Percent(st.Within()), live.Percent(last.Budget), last.At.Seconds())
}

// statusBundle is the status line with the json bundle.
func statusBundle(name string, st live.Status) jupyter.Bundle {
	line := statusLine(name, st)
	return jupyter.Bundle{"text/plain": line, "text/html": "<pre>" + html.EscapeString(line) + "</pre>",
		"application/json": st.JSON()}
}

// kindUnits are the units of each kind's main value.
var kindUnits = map[live.Kind]string{live.CPU: "nanoseconds", live.Goroutine: "count", live.Heap: "bytes",
	live.Mutex: "nanoseconds", live.Block: "nanoseconds", live.Trace: "count", live.Counters: "count"}

// summaryTable shows, per kind, its windows, time on, cost, what its
// windows saw and its projection onto the whole time attached: for the
// kinds whose counts add up, what its windows saw in all; for goroutine
// snapshots, the last snapshot and their mean.
func summaryTable(name string, a *attachment, st live.Status) *kernel.Table {
	t := &kernel.Table{Title: "live " + name + ": per kind (projected: counts scaled by time attached over time on; " +
		"goroutines: the last snapshot observed, the mean of the snapshots projected; triggered windows stay out of both)",
		Columns: []string{"kind", "profile", "windows", "triggered", "seconds on", "cost", "observed", "projected over the run", "stopped"}}
	for _, k := range st.Kinds {
		unit := kindUnits[k.Kind]
		observed := kernel.ValueCell(int64(k.Observed), unit)
		if k.Kind == live.Goroutine {
			observed = kernel.ValueCell(int64(k.Last), unit)
		}
		projected := st.Projected(k)
		stopped := k.Stopped
		if stopped == "" && k.Never != "" {
			stopped = "never: " + k.Never
		}
		t.Rows = append(t.Rows, []any{string(k.Kind), a.profileName(k.Kind), k.Windows, k.Triggered,
			kernel.Cell{Text: strconv.FormatFloat(k.Seconds, 'f', 1, 64), Value: k.Seconds},
			kernel.Cell{Text: live.Percent(shareOf(k.Spent, st.Elapsed.Seconds())), Value: shareOf(k.Spent, st.Elapsed.Seconds())},
			observed, projectedCell(projected, unit), stopped})
	}
	return t
}

// projectedCell shows a projection rounded to the nearest unit; a mean
// of counts below a thousand keeps one decimal.
func projectedCell(x float64, unit string) kernel.Cell {
	if unit == "count" && x < 1000 && x != math.Trunc(x) {
		return kernel.Cell{Text: strconv.FormatFloat(x, 'f', 1, 64), Value: x}
	}
	return kernel.ValueCell(int64(math.Round(x)), unit)
}

func shareOf(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// liveState says, for the profiles command, how the attachment feeding
// the profile named name stands: "" when none does.
func liveState(s *kernel.Session, name string) string {
	for _, a := range attachments(s) {
		for _, k := range a.series() {
			if a.profileName(k) != name {
				continue
			}
			st, ended := a.snapshot()
			state := "collecting"
			if ended {
				state = "done"
			}
			return fmt.Sprintf("%s: %d windows in %.0fs, cost %s", state, st.Windows, st.Elapsed.Seconds(), live.Percent(st.Cost()))
		}
	}
	return ""
}

// addLiveColumn adds the column live to the profiles table t (rows in the
// order of names) when an attachment feeds some profile.
func addLiveColumn(s *kernel.Session, t *kernel.Table, names []string) {
	states := make([]string, len(names))
	any := false
	for i, n := range names {
		states[i] = liveState(s, n)
		any = any || states[i] != ""
	}
	if !any {
		return
	}
	t.Columns = append(t.Columns, "live")
	for i := range t.Rows {
		t.Rows[i] = append(t.Rows[i], states[i])
	}
}

// textBundle is a line of text as a bundle, in HTML too.
func textBundle(s string) jupyter.Bundle {
	return jupyter.Bundle{"text/plain": s, "text/html": "<p>" + html.EscapeString(s) + "</p>"}
}

// finish ends an attachment's answer: the main profile's phases, the
// per-kind summary, the notes when they were not shown as they came, and
// what stopped collection. A target that failed before any window is an
// error; after some, a message, since what was gathered is kept.
func finish(c *kernel.Call, a *attachment, st live.Status, notes bool) error {
	if l := a.loaded[a.kinds[0]]; l != nil && phasesKey.Get(l) != nil {
		c.Out.Display(phaseTable(l, phasesKey.Get(l)), nil)
	}
	c.Table(summaryTable(a.name, a, st))
	if notes {
		for _, n := range st.Notes {
			c.Out.Stream("stderr", a.name+": "+n+"\n")
		}
	}
	if a.failed != "" {
		c.Out.Stream("stderr", a.name+": windows not taken into the profiles: "+a.failed+"\n")
	}
	switch {
	case (st.Failed || st.Unpayable) && st.Windows == 0:
		return fmt.Errorf("attach %s: %s; no window was gathered", a.target, st.Stopped)
	case st.Failed:
		c.Out.Stream("stderr", fmt.Sprintf("%s: %s; collection stopped, and the %d windows gathered are kept in %s\n",
			a.name, st.Stopped, st.Windows, a.name))
	}
	return nil
}

// showTimeline shows the main profile's phases timeline, once it has some,
// as the session's pictures setting says.
func showTimeline(a *attachment, d *kernel.LiveDisplay, pictures string) {
	showPhases(a.loaded[a.kinds[0]], d, pictures)
}

// showPhases shows the phases timeline of l in d, once l has phases.
func showPhases(l *kernel.Loaded, d *kernel.LiveDisplay, pictures string) {
	if l == nil || phasesKey.Get(l) == nil {
		return
	}
	if svg, err := timelinePicture(l.Name, phasesKey.Get(l)); err == nil {
		d.Show(kernel.PictureBundle(svg, timelineText(l.Name, phasesKey.Get(l)), pictures))
	}
}
