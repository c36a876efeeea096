package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
	"github.com/proflens/proflens/live/demo"
	"github.com/proflens/proflens/phase"
)

// attachment is a live collection (attach) feeding profiles of the
// session: NAME for its first kind, NAME_KIND for the others, each a
// series with one interval per window, growing as windows arrive.
//
// Concurrency: a background collection runs live.Run on a goroutine of
// its own, which touches only the fields under mu (the windows not yet
// taken and the latest status); the session takes the windows at the start
// of each statement (syncLive), in the cell's goroutine, which owns
// everything else. A foreground collection runs live.Run in the cell's
// goroutine and hands its windows over the same way.
type attachment struct {
	name   string
	target string // as the user named it: a URL or demo:NAME
	kinds  []live.Kind
	window time.Duration // the length of its CPU windows
	using  string        // saved phase set labelling the main profile's phases
	proc   *demo.Process // a demo target the attachment started; stopped with it

	cancel context.CancelCauseFunc // stops a background collection, saying why
	done   chan struct{}           // closed when a background collection has ended
	ctl    chan live.Control       // changes the collection while it runs (background)
	// phasesFound is how many phases the main series has, as last found:
	// the phase trigger reads it from the collection's goroutine.
	phasesFound atomic.Int64

	mu     sync.Mutex
	inbox  []*live.Window
	status live.Status
	ended  bool
	wake   chan struct{} // told of each event, without waiting, while watch shows the attachment

	parts  map[live.Kind][]*analysis.Profile // every window taken, per kind
	stale  map[live.Kind]bool                // kinds whose profile lacks windows taken
	loaded map[live.Kind]*kernel.Loaded
	failed string // why the session stopped taking windows ("" while it takes them)
}

// newAttachment returns an attachment of the named target; proc is the
// demo target it started, or nil.
func newAttachment(name, target string, kinds []live.Kind, using string, proc *demo.Process) *attachment {
	return &attachment{name: name, target: target, kinds: kinds, using: using, proc: proc, ctl: make(chan live.Control, 4),
		parts: map[live.Kind][]*analysis.Profile{}, stale: map[live.Kind]bool{}, loaded: map[live.Kind]*kernel.Loaded{}}
}

// reset empties the series: the windows waiting are dropped, and the
// next windows start each kind's series anew (its profile keeps what it
// shows until then).
func (a *attachment) reset() {
	a.take()
	clear(a.parts)
	clear(a.stale)
	for _, l := range a.loaded {
		phasesKey.Set(l, nil)
	}
	a.phasesFound.Store(0)
}

// event is live.Run's report: the window waits in the inbox, the status
// is kept.
func (a *attachment) event(e live.Event) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e.Window != nil {
		a.inbox = append(a.inbox, e.Window)
	}
	a.status = e.Status
	a.tell()
}

// tell wakes the watch showing the attachment, if any; a.mu is held.
func (a *attachment) tell() {
	select {
	case a.wake <- struct{}{}:
	default: // a wake is pending already, or none is watched for
	}
}

// watchWith has each later event wake w (nil: none).
func (a *attachment) watchWith(w chan struct{}) {
	a.mu.Lock()
	a.wake = w
	a.mu.Unlock()
}

// end records the final status of the collection.
func (a *attachment) end(st live.Status) {
	a.mu.Lock()
	a.status, a.ended = st, true
	a.tell()
	a.mu.Unlock()
	if a.proc != nil {
		a.proc.Stop()
	}
}

// snapshot returns the latest status and whether collection has ended.
func (a *attachment) snapshot() (live.Status, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status, a.ended
}

// take removes the windows waiting in the inbox.
func (a *attachment) take() []*live.Window {
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.inbox
	a.inbox = nil
	return w
}

// profileName is the name of kind k's profile.
func (a *attachment) profileName(k live.Kind) string {
	if k == a.kinds[0] {
		return a.name
	}
	return a.name + "_" + string(k)
}

// series are the kinds with profiles: those asked for, then those only
// triggers collected.
func (a *attachment) series() []live.Kind {
	out := slices.Clone(a.kinds)
	for _, k := range live.Kinds {
		if len(a.parts[k]) > 0 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// syncLive takes the windows every attachment has gathered since the last
// statement into the session's profiles. It runs at the start of each
// statement, in the cell's goroutine; the CPU time it takes on a
// background collection's windows is that collection's (charged to its
// budget when the target runs on this machine).
func syncLive(ctx context.Context, s *kernel.Session) {
	for _, name := range sortedKeys(attachments(s)) {
		a := attachments(s)[name]
		spent := live.ThreadCPU(func() { a.sync(ctx, s) })
		a.charge(spent)
	}
}

// charge hands the CPU time proflens spent on a background collection's
// windows to its account, without waiting.
func (a *attachment) charge(spent float64) {
	if a.done == nil || spent <= 0 {
		return
	}
	select {
	case a.ctl <- live.Control{Charge: spent}:
	default: // the collection is busy or over: the charge is dropped, and the status says less than was spent
	}
}

// orNone lists names, or says none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func sortedKeys(m map[string]*attachment) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sync grows the attachment's profiles by the windows waiting. An
// interrupt leaves a profile to grow at the next sync; another error stops
// the session taking windows, and says why in the attachment's summary.
func (a *attachment) sync(ctx context.Context, s *kernel.Session) {
	for _, w := range a.take() {
		a.parts[w.Kind] = append(a.parts[w.Kind], w.Profile)
		a.stale[w.Kind] = true
	}
	for _, k := range a.series() {
		if !a.stale[k] || a.failed != "" {
			continue
		}
		err := a.grow(ctx, s, k)
		switch {
		case err == nil:
			a.stale[k] = false
		case ctx.Err() == nil:
			a.failed = err.Error()
		}
	}
}

// grow rebuilds kind k's series from its windows and puts it in the
// session: a new profile the first time (the main one becomes current),
// else the same profile grown, keeping its standing filter, granularity
// and phase labels. A profile the user has replaced or removed is left
// alone.
func (a *attachment) grow(ctx context.Context, s *kernel.Session, k live.Kind) error {
	name := a.profileName(k)
	p, err := analysis.Series(name, a.parts[k])
	if err != nil {
		return fmt.Errorf("live %s: %w", name, err)
	}
	p.Source = a.target + " (live " + string(k) + ")"
	l := a.loaded[k]
	switch {
	case l == nil:
		l = kernel.NewLoaded(name, p, analysis.NewTree(p))
		a.loaded[k] = l
		adopt(s, l, k == a.kinds[0])
	case s.Get(name) != l:
		return nil
	default:
		l.Regrow(p)
	}
	if phasesKey.Get(l) != nil || (k == a.kinds[0] && k == live.CPU) {
		return a.redetect(ctx, s, l)
	}
	return nil
}

// adopt adds l to the session, making it current only when current is set.
func adopt(s *kernel.Session, l *kernel.Loaded, current bool) {
	if current {
		s.Add(l)
		return
	}
	s.Put(l)
}

// liveWindow is ω for live phases: a window of a second or more already
// sums a hundred samples per busy core, the smoothing JIVE's ω gives short
// intervals; with ω = 3 each phase would need three windows to be seen
// (on the demo at 1 s windows, ARI 0.95 with ω = 1, 0.37 with ω = 3).
const liveWindow = 1

// redetect runs phases again on l, grown, with the attachment's saved set
// for the main profile.
func (a *attachment) redetect(ctx context.Context, s *kernel.Session, l *kernel.Loaded) error {
	using := ""
	if l.Name == a.name {
		using = a.using
	}
	st, err := livePhases(ctx, s, l, using)
	if err != nil {
		return err
	}
	if l.Name == a.name {
		a.phasesFound.Store(int64(len(st.Result.Phases)))
	}
	return nil
}

// livePhases runs phases again on a live profile l, grown, and keeps the
// result: with the last run's parameters (at first JIVE's, with ω =
// liveWindow), the saved set using ("" for none), and the labels carried.
func livePhases(ctx context.Context, s *kernel.Session, l *kernel.Loaded, using string) (*PhaseState, error) {
	run := phaseRun{params: phase.DefaultParams(), opts: phase.Options{Value: l.Value}, using: using}
	run.params.Window = liveWindow
	if phasesKey.Get(l) != nil {
		run.params, run.opts.Count = phasesKey.Get(l).Result.Params, phasesKey.Get(l).Count
	}
	c := kernel.NewCall(ctx, s, phasesCommand, l)
	st, err := detectPhases(c, run)
	if err != nil {
		return nil, err
	}
	phasesKey.Set(l, st)
	return st, nil
}

// stop ends a background collection, for the reason why, and waits for
// it; the windows it gathered stay in the inbox for the next sync.
func (a *attachment) stop(why string) {
	if a.cancel != nil {
		a.cancel(errors.New(why))
		<-a.done
	}
}

// liveKey keeps the attachments feeding the session's profiles, by main
// name.
var liveKey = kernel.NewKey[map[string]*attachment]("live")

// attachments returns the session's attachments by main name.
func attachments(s *kernel.Session) map[string]*attachment {
	m := liveKey.Get(s)
	if m == nil {
		m = map[string]*attachment{}
		liveKey.Set(s, m)
	}
	return m
}

// closeLive stops every live collection of the session and the demo
// targets they started. The session's profiles stay.
func closeLive(s *kernel.Session) {
	live := attachments(s)
	for _, name := range sortedKeys(live) {
		live[name].stop("the session ended")
		delete(live, name)
	}
}

// startTarget resolves the target of an attachment: a demo target started
// for it (demo:phases serves net/http/pprof, demo:agent the proflens agent
// with budget), else the URL as given.
func startTarget(target string, budget string) (url string, proc *demo.Process, err error) {
	name, ok := strings.CutPrefix(target, "demo:")
	if !ok {
		return target, nil, nil
	}
	var args []string
	switch name {
	case "phases":
	case "agent":
		args = []string{"-agent", budget}
	default:
		return "", nil, fmt.Errorf("demo:%s: the demo targets are demo:phases (net/http/pprof) and demo:agent (the proflens agent)", name)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", target, err)
	}
	proc, err = demo.Spawn(exe, args...)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w (the demo target runs as `%s %s`)", target, err, exe, demo.Subcommand)
	}
	return proc.URL, proc, nil
}
