package commands

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
)

const attachDoc = "DYPER (seed 002): collects profiles from a running Go program that serves `net/http/pprof`, or the " +
	"proflens agent (package agent: `agent.Start(addr, budget)`, which measures its own cost from inside), " +
	"within an overhead budget. `demo:phases` and `demo:agent` start a demo target with known phases " +
	"(encode, sort, hash, idle, compress; the pprof label phase names them) on 127.0.0.1, serving the one or the other.\n\n" +
	"**The budget is the target's slowdown**: the CPU time and pause time profiling costs it, as a share of the time " +
	"attached. Each kind is a proflet with a priority, its place in `kinds`: cpu (CPU profile windows of `window`), " +
	"goroutine (snapshots), heap, mutex and block (deltas over a window), trace (an execution trace inside a CPU window, " +
	"whose samples carry times). The budget is shared among the kinds by priority (weights 1, 1/2, 1/3, …, no kind " +
	"getting more than one collection per window needs), and a collection starts only once its kind's share has paid for " +
	"it in advance, at three times what its recent collections cost (a CPU window's first at its bound: every CPU " +
	"sampled for the whole window). **Guaranteed**: that schedule, and the cost it accounts, which never exceeds the " +
	"budget (when a collection costs more than it reserved, nothing starts until the account is back within, and the " +
	"attachment ends only then). **Measured**: each collection's cost, by the agent from inside, or from outside " +
	"(samples and trace bytes at fixed costs, answer times at the best pace the target has shown). **Estimated**: the " +
	"slowdown (the cost per second of the target's CPU time when it keeps more than a core busy) and the projections: " +
	"counts that add up over time scale by the time attached over the time on, goroutine counts average their snapshots.\n\n" +
	"The profile NAME (the first kind; NAME_KIND for the others) is a series, one interval per window, growing as " +
	"windows arrive; every command reads it. While `attach` runs, a status line and the phases timeline update in " +
	"place (JIVE over the windows, one interval each, with ω = 1 since a window already sums a second of samples; `phases NAME window=…` changes it; `using=FILE.json` labels known phases); interrupting stops collection and keeps " +
	"everything gathered. With `background=true` the cell ends at once and later cells run while collection goes on; " +
	"`profiles` shows its progress and `detach` ends it. **Several processes**, each attached in the background within its own " +
	"budget, show in one display with `watch NAME NAME…`: each one's status line and phases timeline, and their cpu windows " +
	"side by side in time as one profile, whose phases say which process they are in.\n\n" +
	"**Control while it runs** (DYPER's bound \"dynamically settable by the programmer\"): `attach NAME budget=5%` on an " +
	"attached NAME changes its budget from now on (a collection in flight finishes as it was paid for; the status then says " +
	"what the budgets allowed over the time attached; `attach NAME` alone shows its status); `attach NAME kinds=goroutine,cpu` " +
	"collects those kinds from now on, in that order of priority (a kind left out stops, its profile keeping its windows; a new " +
	"one starts with no credit, its profile NAME_KIND); `attach NAME reset=true` empties its series, so that later windows " +
	"start them anew (the account goes on); `pause NAME` and `resume NAME` stop and restart collection (no credit accrues " +
	"meanwhile). **Triggers** start a detailed collection when a condition on the live data holds: `when=` is `phase` (a new " +
	"phase appears among the windows' phases), `goroutines>N` (a goroutine snapshot counts more than N), `heap+SIZE` (the heap " +
	"in use grew by SIZE, such as 64MB, since the trigger was set or last fired) or `cpu:REGEXP>SHARE` (in a CPU window, " +
	"functions matching REGEXP are on more than SHARE of the stacks); `then=` is what to collect: `trace`, `cpu:10s` (a " +
	"longer CPU window), `heap`, `mutex`, `block`, comma-separated, each with `:DURATION` if wanted. A trigger fires at most " +
	"once while what it asked for waits or runs; what it asks for waits for its credit like any collection, at the highest " +
	"priority, so the budget holds; the status line says when and why it fired. Triggered windows join their kind's series " +
	"but stay out of the projections. In the background, `when=phase` fires once phases are found, at the next cell.\n\n" +
	"**A target on this machine** (a loopback address): proflens's own work on each window (reading it, the series, the " +
	"phases, the timeline) competes with the target, so its CPU time is charged to the budget too, and the status says how much.\n\n" +
	"Faults: the agent's refusals are waited out; a kind answered 404, or not with a profile, stops; an error status or " +
	"no answer within the window plus `patience` retries after 1 s, 2 s, 4 s, … and stops that kind after five in a row; " +
	"a target that stops answering ends collection. Windows are placed on proflens's clock: a jump of the target's " +
	"clock is noted and moves nothing. Nothing gathered is lost: only a window in flight at the end is dropped."

var attachCommand = &kernel.Command{
	Name:    "attach",
	Summary: "Profile a running Go program live, within an overhead budget (DYPER).",
	Doc:     attachDoc,
	Args: []kernel.Arg{{Name: "URL", Kind: kernel.KindText,
		Doc:      "http://HOST:PORT of a program serving net/http/pprof or the proflens agent, or demo:phases, demo:agent; or the NAME of an attachment, to change it",
		Complete: func(c *kernel.Call, prefix string) []string { return attachedNames(c.Session, prefix) }}},
	Options: []kernel.Option{
		{Name: "budget", Doc: "the target's slowdown allowed, as a share of the time attached", Default: "1%"},
		{Name: "for", Doc: "how long to collect (default: until interrupted, or detach)", Kind: kernel.KindDuration},
		{Name: "kinds", Doc: "what to collect, in priority order (on an attached NAME: from now on)", Default: "cpu,goroutine,heap,mutex,block,trace"},
		{Name: "window", Doc: "length of CPU windows and deltas, whole seconds", Default: "1s", Kind: kernel.KindDuration},
		{Name: "background", Doc: "collect while later cells run", Default: "false", Values: []string{"true", "false"}},
		{Name: "using", Doc: "label the phases with this saved phase set (phases save=FILE.json)", Kind: kernel.KindFile},
		{Name: "maxwindows", Doc: "most windows of all kinds kept", Default: strconv.Itoa(live.DefaultMaxWindows), Kind: kernel.KindNumber},
		{Name: "patience", Doc: "how long past its window an answer may take", Default: "10s", Kind: kernel.KindDuration},
		{Name: "when", Doc: "a trigger's condition: phase, goroutines>N, heap+SIZE or cpu:REGEXP>SHARE (with then=)",
			Complete: proposals("phase", "goroutines>", "heap+", "cpu:")},
		{Name: "then", Doc: "what a trigger collects: trace, cpu:10s, heap, mutex, block, comma-separated (with when=)",
			Complete: proposals("trace", "cpu:10s", "heap", "mutex", "block")},
		{Name: "reset", Doc: "on an attached NAME: empty its series; later windows start them anew", Values: []string{"true", "false"}},
		kernel.InteractiveOption,
	},
	Examples: []string{"attach demo:phases as run for=3s budget=10% kinds=cpu,goroutine", "top run n=3",
		"attach demo:agent as bg background=true for=20s kinds=cpu,goroutine", "attach bg budget=5%",
		"attach bg when=goroutines>1000 then=trace", "pause bg", "resume bg", "detach bg"},
	AllowAs: true,
	Run:     runAttach,
}

func runAttach(c *kernel.Call) error {
	if a := attachments(c.Session)[c.Arg(0)]; a != nil {
		return steer(c, a)
	}
	plan, err := readPlan(c)
	if err != nil {
		return err
	}
	bg, err := c.Bool("background")
	if err != nil {
		return err
	}
	name := c.As
	if name == "" {
		name = c.Session.UniqueName("live")
	}
	if attachments(c.Session)[name] != nil {
		return c.Usagef("%s is attached already: detach %s first, or name this one with as NAME", name, name)
	}
	if c.Has("using") {
		if _, err := readSaved(c, c.Opt("using"), 64<<20); err != nil {
			return fmt.Errorf("attach using=%s: %w", c.Opt("using"), err)
		}
	}
	if c.Has("reset") {
		return c.Usagef("reset=: %s is not attached; reset= empties the series of an attachment", c.Arg(0))
	}
	a, t, err := connect(c, name, plan.Kinds)
	if err != nil {
		return err
	}
	a.window = plan.Window
	if bg {
		plan.Control = a.ctl // a foreground attachment holds the cell: nothing can steer it
	}
	if tr, err := readTrigger(c, a); err != nil || tr != nil {
		if err != nil {
			a.end(live.Status{})
			return err
		}
		plan.Triggers = append(plan.Triggers, tr)
	}
	attachments(c.Session)[name] = a
	if bg {
		collectBackground(c, a, t, plan)
		return nil
	}
	return collectForeground(c, a, t, plan)
}

// connect starts the target when it is a demo, and probes it.
func connect(c *kernel.Call, name string, kinds []live.Kind) (*attachment, *live.Target, error) {
	url, proc, err := startTarget(c.Arg(0), c.Opt("budget"))
	if err != nil {
		return nil, nil, err
	}
	t, err := live.Probe(c.Ctx, url)
	if err != nil {
		if proc != nil {
			proc.Stop()
		}
		return nil, nil, fmt.Errorf("attach %w", err)
	}
	return newAttachment(name, c.Arg(0), kinds, c.Opt("using"), proc), t, nil
}

// proposals completes an option's value from words.
func proposals(words ...string) func(*kernel.Call, string) []string {
	return func(_ *kernel.Call, prefix string) []string {
		var out []string
		for _, w := range words {
			if strings.HasPrefix(w, prefix) {
				out = append(out, w)
			}
		}
		return out
	}
}

// readBudget reads budget=, a share of the target's time above 0 and at
// most 100%.
func readBudget(c *kernel.Call) (float64, error) {
	v := c.Opt("budget")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, c.Usagef("budget=%s is not a percentage: write e.g. budget=1%% or budget=0.1%%", v)
	case f <= 0:
		return 0, c.Usagef("budget=%s: write a share above 0, such as budget=1%% or budget=0.1%%", v)
	case f > 100:
		return 0, c.Usagef("budget=%s: the budget is the share of the target's time profiling may take, at most 100%%", v)
	}
	return f / 100, nil
}

// readPlan reads the options of attach.
func readPlan(c *kernel.Call) (live.Plan, error) {
	var p live.Plan
	var err error
	if p.Budget, err = readBudget(c); err != nil {
		return p, err
	}
	if p.Kinds, err = live.ParseKinds(c.Opt("kinds")); err != nil {
		return p, c.Usagef("%v", err)
	}
	if p.Window, err = c.Duration("window"); err != nil {
		return p, err
	}
	if c.Has("for") {
		if p.For, err = c.Duration("for"); err != nil {
			return p, err
		}
	}
	if p.Patience, err = c.Duration("patience"); err != nil {
		return p, err
	}
	if p.MaxWindows, err = c.PositiveInt("maxwindows"); err != nil {
		return p, err
	}
	if err := p.Check(); err != nil {
		return p, c.Usagef("%v", err)
	}
	return p, nil
}

// collectForeground collects in the cell: the status line and the phases
// timeline update in place as windows arrive; an interrupt ends collection
// and keeps everything gathered.
func collectForeground(c *kernel.Call, a *attachment, t *live.Target, p live.Plan) error {
	status, timeline := c.LiveDisplay(), c.LiveDisplay()
	status.Show(statusBundle(a.name, live.Status{Target: t.URL, Server: t.Kind(), Budget: p.Budget}))
	st := live.Run(c.Ctx, t, p, func(e live.Event) {
		a.event(e)
		if e.Note != "" {
			c.Out.Stream("stderr", a.name+": "+e.Note+"\n")
		}
		if e.Window != nil {
			a.sync(c.Ctx, c.Session)
			showTimeline(a, timeline, c.Session.Settings.Pictures)
		}
		status.Show(statusBundle(a.name, e.Status))
	})
	a.end(st)
	delete(attachments(c.Session), a.name)
	a.sync(context.Background(), c.Session) // the last windows, interrupted or not
	status.Show(statusBundle(a.name, st))
	showTimeline(a, timeline, c.Session.Settings.Pictures)
	return finish(c, a, st, false)
}

// collectBackground starts collection on a goroutine of the attachment's
// and returns; the session takes its windows at each statement.
func collectBackground(c *kernel.Call, a *attachment, t *live.Target, p live.Plan) {
	ctx, cancel := context.WithCancelCause(context.Background())
	a.cancel, a.done = cancel, make(chan struct{})
	go func() {
		defer close(a.done)
		a.end(runRecovered(ctx, t, p, a))
	}()
	liveControls(c, a.name, textBundle(fmt.Sprintf("%s ← %s (%s): collecting in the background within a %s budget; profiles shows "+
		"its progress, detach %s ends it", a.name, t.URL, t.Kind(), c.Opt("budget"), a.name)))
}

// runRecovered runs live.Run, turning a panic into the status's reason
// to stop: a background goroutine must not take the kernel down.
func runRecovered(ctx context.Context, t *live.Target, p live.Plan, a *attachment) (st live.Status) {
	defer func() {
		if r := recover(); r != nil {
			st, _ = a.snapshot()
			st.Stopped, st.Failed = fmt.Sprintf("failed inside proflens (%v); please report this", r), true
		}
	}()
	return live.Run(ctx, t, p, a.event)
}
