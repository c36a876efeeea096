package commands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
)

var pauseCommand = &kernel.Command{
	Name:    "pause",
	Summary: "Pause a live collection (attach background=true): nothing starts until resume.",
	Doc: "Collections in flight finish; no credit accrues while paused, so that resuming does not burst. The time paused " +
		"still counts as time attached, and the status line says paused.",
	Args:     []kernel.Arg{attachedArg},
	Examples: []string{"attach demo:phases as bg background=true kinds=cpu", "pause bg", "resume bg", "detach bg"},
	Run:      func(c *kernel.Call) error { return control(c, live.Control{Pause: true}) },
}

var resumeCommand = &kernel.Command{
	Name:     "resume",
	Summary:  "Resume a paused live collection.",
	Doc:      "Collection goes on as the budget pays, from the credit it held when paused.",
	Args:     []kernel.Arg{attachedArg},
	Examples: []string{"attach demo:phases as bg background=true kinds=cpu", "pause bg", "resume bg", "detach bg"},
	Run:      func(c *kernel.Call) error { return control(c, live.Control{Resume: true}) },
}

// attachedArg is the NAME of an attachment, completed from the session's.
var attachedArg = kernel.Arg{Name: "NAME", Doc: "the attachment's name (its main profile); the only one when left out",
	Kind: kernel.KindText, Optional: true, Complete: func(c *kernel.Call, prefix string) []string { return attachedNames(c.Session, prefix) }}

// attachedNames are the session's attachments whose names start with prefix.
func attachedNames(s *kernel.Session, prefix string) []string {
	var out []string
	for _, n := range sortedKeys(attachments(s)) {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// control sends ctl to the attachment the call names and shows its status
// once applied.
func control(c *kernel.Call, ctl live.Control) error {
	a, err := pickAttachment(c)
	if err != nil {
		return err
	}
	return sendControl(c, a, ctl)
}

// sendControl hands ctl to a's collection, waits until it is applied, and shows
// the status.
func sendControl(c *kernel.Call, a *attachment, ctl live.Control) error {
	if _, ended := a.snapshot(); ended || a.done == nil {
		return c.Usagef("%s is not collecting: detach %s shows what it gathered", a.name, a.name)
	}
	reply := make(chan live.Status, 1)
	ctl.Reply = reply
	select {
	case a.ctl <- ctl:
	case <-a.done:
		return c.Usagef("%s stopped collecting: detach %s shows what it gathered", a.name, a.name)
	case <-c.Ctx.Done():
		return c.Ctx.Err()
	}
	var st live.Status
	select {
	case st = <-reply:
	case <-a.done:
		st, _ = a.snapshot()
	}
	a.event(live.Event{Status: st})
	c.Out.Display(statusBundle(a.name, st), nil)
	return nil
}

// collectOptions are attach's options that only a new attachment takes.
var collectOptions = []string{"for", "window", "background", "using", "maxwindows", "patience"}

// steer changes an attachment: attach NAME budget=, kinds=, reset=, when= then=.
func steer(c *kernel.Call, a *attachment) error {
	var given []string
	for _, o := range collectOptions {
		if c.Has(o) {
			given = append(given, o+"=")
		}
	}
	if c.As != "" {
		given = append(given, "as NAME")
	}
	if len(given) > 0 {
		return c.Usagef("%s is attached already: on it, attach changes budget=, kinds=, reset= and adds a trigger (when= then=); "+
			"%s: only a new attachment takes that (detach %s first)", a.name, strings.Join(given, ", "), a.name)
	}
	var ctl live.Control
	if c.Has("budget") {
		b, err := readBudget(c)
		if err != nil {
			return err
		}
		ctl.Budget = b
	}
	if c.Has("kinds") {
		ks, err := live.ParseKinds(c.Opt("kinds"))
		if err != nil {
			return c.Usagef("%v", err)
		}
		ctl.Kinds = ks
	}
	tr, err := readTrigger(c, a)
	if err != nil {
		return err
	}
	ctl.Trigger = tr
	if c.Has("reset") {
		reset, err := c.Bool("reset")
		if err != nil {
			return err
		}
		if reset {
			a.reset()
		}
	}
	if err := sendControl(c, a, ctl); err != nil || ctl.Kinds == nil {
		return err
	}
	for _, k := range ctl.Kinds { // a new kind's series: NAME_KIND
		if !slices.Contains(a.kinds, k) {
			a.kinds = append(a.kinds, k)
		}
	}
	st, _ := a.snapshot()
	c.Out.Display(textBundle(kindsLine(a, st)), nil)
	return nil
}

// kindsLine says which kinds an attachment collects, in priority order,
// and which only a trigger collects (their profiles keep their windows).
func kindsLine(a *attachment, st live.Status) string {
	var on, off []string
	for _, k := range st.Kinds {
		switch {
		case k.Manual && k.Windows > 0:
			off = append(off, fmt.Sprintf("%s (profile %s, %s)", k.Kind, a.profileName(k.Kind), kernel.CountOf(k.Windows, "window")))
		case k.Manual:
			off = append(off, string(k.Kind))
		default:
			on = append(on, string(k.Kind))
		}
	}
	line := fmt.Sprintf("%s collects %s from now on, in this order of priority", a.name, strings.Join(on, ","))
	if len(off) > 0 {
		line += "; not collected but by a trigger: " + strings.Join(off, ", ")
	}
	return line
}

// readTrigger reads when= and then=, or nil when neither is given.
func readTrigger(c *kernel.Call, a *attachment) (*live.Trigger, error) {
	if !c.Has("when") && !c.Has("then") {
		return nil, nil
	}
	if !c.Has("when") || !c.Has("then") {
		return nil, c.Usagef("when= and then= come together, such as when=goroutines>100 then=trace")
	}
	then, err := live.ParseRequests(c.Opt("then"))
	if err != nil {
		return nil, c.Usagef("%v", err)
	}
	var cond live.Condition
	if c.Opt("when") == "phase" {
		cond = &phaseCondition{a: a, seen: -1}
	} else if cond, err = live.ParseCondition(c.Opt("when")); err != nil {
		return nil, c.Usagef("%v", err)
	}
	if k := cond.Needs(); !slices.Contains(a.kinds, k) || (c.Opt("when") == "phase" && a.kinds[0] != live.CPU) {
		return nil, c.Usagef("when=%s reads the %s windows of %s (its first kind, for phases): %s collects %s", c.Opt("when"), k, a.name,
			a.name, strings.Join(kindNames(a.kinds), ","))
	}
	return &live.Trigger{When: cond, Then: then}, nil
}

func kindNames(ks []live.Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

// phaseCondition holds when the phases found over the main CPU series
// count more than they did: a new phase appeared. The phases are found
// where the series grows (each window in the foreground, each cell in the
// background); the first count found is the baseline.
type phaseCondition struct {
	a    *attachment
	seen int64
}

func (p *phaseCondition) String() string   { return "phase" }
func (p *phaseCondition) Needs() live.Kind { return live.CPU }

func (p *phaseCondition) Check(w *live.Window) (string, bool) {
	n := p.a.phasesFound.Load()
	switch {
	case n == 0:
		return "", false
	case p.seen < 0:
		p.seen = n
		return "", false
	case n <= p.seen:
		return "", false
	}
	why := fmt.Sprintf("a new phase appeared: %d phases among the cpu windows up to %.1fs, %d before", n, w.End.Seconds(), p.seen)
	p.seen = n
	return why, true
}
