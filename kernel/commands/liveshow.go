package commands

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/live"
)

// pct shows a share as a percentage with two decimals.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + "%" }

// statusLine says where an attachment stands: what is guaranteed (the
// cost accounted, within the budget) and what is estimated (the
// slowdown).
func statusLine(name string, st live.Status) string {
	state := "collecting"
	if st.Stopped != "" {
		state = "stopped: " + st.Stopped
	}
	return fmt.Sprintf("%s ← %s (%s): %d windows in %.1fs, duty cycle %s; cost accounted %s of a %s budget (guaranteed); "+
		"estimated slowdown %s; %s", name, st.Target, st.Server, st.Windows, st.Elapsed.Seconds(), pct(st.DutyCycle()),
		pct(st.Cost()), strings.TrimSuffix(pct(st.Budget), ".00%")+"%", pct(st.EstimatedSlowdown()), state)
}

// statusBundle is the status line with the json bundle.
func statusBundle(name string, st live.Status) jupyter.Bundle {
	line := statusLine(name, st)
	return jupyter.Bundle{"text/plain": line, "text/html": "<p><code>" + html.EscapeString(line) + "</code></p>",
		"application/json": st.JSON()}
}

// kindUnits are the units of each kind's main value.
var kindUnits = map[live.Kind]string{live.CPU: "nanoseconds", live.Goroutine: "count", live.Heap: "bytes",
	live.Mutex: "nanoseconds", live.Block: "nanoseconds", live.Trace: "count"}

// summaryTable shows, per kind, its windows, time on, cost, what its
// windows saw and its projection onto the whole time attached.
func summaryTable(name string, a *attachment, st live.Status) *kernel.Table {
	t := &kernel.Table{Title: "live " + name + ": per kind (projected: counts scaled by time attached over time on; goroutines: mean of the snapshots)",
		Columns: []string{"kind", "profile", "windows", "seconds on", "cost", "observed", "projected over the run", "stopped"}}
	for _, k := range st.Kinds {
		unit := kindUnits[k.Kind]
		t.Rows = append(t.Rows, []any{string(k.Kind), a.profileName(k.Kind), k.Windows,
			kernel.Cell{Text: strconv.FormatFloat(k.Seconds, 'f', 1, 64), Value: k.Seconds},
			kernel.Cell{Text: pct(shareOf(k.Spent, st.Elapsed.Seconds())), Value: shareOf(k.Spent, st.Elapsed.Seconds())},
			kernel.ValueCell(int64(k.Observed), unit), kernel.ValueCell(int64(st.Projected(k)), unit), k.Stopped})
	}
	return t
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
		for _, k := range a.kinds {
			if a.profileName(k) != name {
				continue
			}
			st, ended := a.snapshot()
			state := "collecting"
			if ended {
				state = "done"
			}
			return fmt.Sprintf("%s: %d windows in %.0fs, cost %s", state, st.Windows, st.Elapsed.Seconds(), pct(st.Cost()))
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
	case st.Failed && st.Windows == 0:
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
	l := a.loaded[a.kinds[0]]
	if l == nil || phasesKey.Get(l) == nil {
		return
	}
	if svg, err := timelinePicture(l.Name, phasesKey.Get(l)); err == nil {
		d.Show(kernel.PictureBundle(svg, timelineText(l.Name, phasesKey.Get(l)), pictures))
	}
}
