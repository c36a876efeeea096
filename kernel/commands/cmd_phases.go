package commands

import (
	"fmt"
	"io"
	"strconv"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/phase"
)

const phasesDoc = "JIVE's phase detection (seed 003): the run is cut into intervals (`interval=D`; a series of profiles " +
	"gives one interval per profile), and each interval counts its samples per compacted name of the current view, so " +
	"`level` and `expand` choose the vector's dimensions. W_i is the normalized sum of the last `window` intervals; an " +
	"interval stays in the current phase when P·W_i > `eps`, otherwise resumes the best earlier phase above `delta`, " +
	"otherwise starts a new phase; a window with no samples is the empty phase 0. Phases are numbered in order of first " +
	"appearance and coloured along JIVE's red-to-violet bisection.\n\n" +
	"Sampled data. The paper counted every call; a profiler samples, and a window of m samples of a steady phase " +
	"spread over D names (D = 1/Σp², the names' shares p: D names equally busy give D) has a cosine of about " +
	"c(m) = 1/√(1 + (D−1)/m) with the phase's own vector, below 1 by noise alone. So the defaults follow from the " +
	"sample rate: (1) the default interval holds enough samples that a window of them reads a steady phase at " +
	"(1+ε)/2 or more, m ≥ (D−1)/(4/(1+ε)² − 1) — 83 samples a window for D = 10 at ε = 0.9 — and at least 20 an " +
	"interval; when the recording is dense enough it is a round length giving about 200 intervals instead; the note " +
	"says which and why, with D measured on the recording (the median over stretches of 500 samples, which lie mostly " +
	"inside one phase). (2) eps and delta keep the paper's meaning, the similarity of the phases' distributions: a " +
	"measured cosine is divided by c(m) for the window and for the phase before it is compared with them, so fewer " +
	"samples (a shorter `interval=`, a lower rate) lower the bar on the measured cosine as much as noise lowers the " +
	"cosine itself. (3) What the windows cannot tell is settled after the run: a phase of one interval between two " +
	"intervals of one phase (a blip) joins it; a phase of fewer than `window` intervals in all (a transition: its " +
	"window never lay inside it) joins the neighbour its intervals' counts match; a phase whose vector matches an " +
	"earlier phase above delta is that phase; and each switch moves, by up to window−1 intervals, to where the " +
	"intervals' own counts put it (a window is late by that much). The note says how many intervals that moved. " +
	"`strict=true` applies the paper's rule alone: measured cosines, no provisional phases, nothing settled.\n\n" +
	"`count=self` (the default) counts samples by their leaf's name: every stack shares its ancestors, so " +
	"counting them (`count=total`) adds a common part to every vector that pushes distinct phases above eps " +
	"(and the noise correction, made for leaves, is off); `count=entries` counts frames entered since the " +
	"thread's previous sample (AVID's stack diffing, closest to JIVE's entry counts, but a hot loop sampled twice " +
	"in place shows no entry). By default a new phase is provisional for its first `window` intervals and yields " +
	"to an earlier phase above `delta` (so a returning phase keeps its id in noisy sampled data).\n\n" +
	"`save=FILE.json` writes the phases, labels, colours and vectors; `using=FILE.json` reuses a saved set: " +
	"intervals matching a saved phase above delta get its id, label and colour, so runs compare.\n\n" +
	"Three limits keep a run's memory bounded; a run that would pass one stops with an error saying what " +
	"would fit: `maxintervals` (intervals cut from the run), `maxcells` (phases × names in the phase " +
	"vectors, and bins × names in similarity's matrix; 8 to 16 bytes each) and `maxusing` (bytes read from " +
	"the `using` file). Interrupting the kernel stops a run and leaves the last run's phases as they were."

var phasesCommand = &kernel.Command{
	Name:    "phases",
	Summary: "Detect program phases over time (JIVE): a table of phases and a timeline.",
	Doc:     phasesDoc,
	Options: []kernel.Option{
		{Name: "interval", Doc: "interval length (default: enough samples for a window to tell phases apart, at least 20, or about 200 intervals)", Kind: kernel.KindDuration},
		{Name: "window", Doc: "ω: intervals summed into each window vector", Default: "3", Kind: kernel.KindNumber},
		{Name: "eps", Doc: "ε: similarity that keeps the current phase", Default: "0.9", Kind: kernel.KindNumber},
		{Name: "delta", Doc: "δ: similarity that resumes an earlier phase", Default: "0.9", Kind: kernel.KindNumber},
		{Name: "count", Doc: "what an interval counts per name", Default: "self", Values: []string{"self", "total", "entries"}},
		{Name: "strict", Doc: "the paper's rule only: measured cosines, no provisional phases, nothing settled", Default: "false", Values: []string{"true", "false"}},
		{Name: "save", Doc: "write the phase set to this JSON file", Kind: kernel.KindFile},
		{Name: "using", Doc: "reuse the phases (ids, labels, colours) of this saved JSON file", Kind: kernel.KindFile},
		{Name: "maxintervals", Doc: "most intervals a run may cut", Default: strconv.Itoa(phase.DefaultMaxIntervals), Kind: kernel.KindNumber},
		{Name: "maxcells", Doc: "most cells of phase vectors (phases × names)", Default: strconv.Itoa(phase.DefaultMaxCells), Kind: kernel.KindNumber},
		{Name: "maxusing", Doc: "most bytes read from the using file", Default: "64MiB"},
		kernel.InteractiveOption,
	},
	Examples: []string{"load demo:phasedemo as run", "phases", "phases run window=5 eps=0.95 count=total interval=100ms save=run.json",
		"phases using=run.json", "phases hide=^runtime"},
	Profiles: 1,
	Tree:     true,
	Run:      runPhases,
}

// phasesProgressSamples is the number of samples from which phases shows
// its progress.
const phasesProgressSamples = 200_000

func runPhases(c *kernel.Call) error {
	l := c.Profile()
	run, err := readPhaseRun(c)
	if err != nil {
		return err
	}
	prog := kernel.QuietProgress(c)
	if n := len(l.Profile.Samples); n >= phasesProgressSamples {
		prog = kernel.StartProgress(c, fmt.Sprintf("phases of %s: cutting %d samples into intervals and detecting phases…", l.Name, n))
	}
	st, err := detectPhases(c, run)
	if err != nil {
		prog.Done("phases of "+l.Name, err)
		return err
	}
	prog.Step(fmt.Sprintf("phases of %s: drawing the timeline of %d intervals…", l.Name, st.Vectors.Len()))
	svg, err := timelinePicture(l.Name, st)
	if err == nil {
		err = c.Ctx.Err() // nothing saved nor kept: the session is as before
	}
	if err != nil {
		prog.Done("phases of "+l.Name, err)
		return err
	}
	if c.Has("save") {
		path := c.Path(c.Opt("save"))
		err := writeFile(c.Ctx, path, func(w io.Writer) error { return phase.Save(st.Result, st.Vectors, st.Count).Write(w) })
		if err != nil {
			prog.Done("phases of "+l.Name, err)
			return fmt.Errorf("phases save=%s: %w", c.Opt("save"), err)
		}
		st.Note += "; saved to " + c.Opt("save")
	}
	prog.Done(fmt.Sprintf("phases of %s: %s over %s", l.Name, kernel.CountOf(len(st.Result.Phases), "phase"), kernel.CountOf(st.Vectors.Len(), "interval")), nil)
	phasesKey.Set(l, st)
	l.SetPicture(svg, nil)
	c.Out.Display(phaseTable(l, st), nil)
	c.Picture(svg, timelineText(l.Name, st))
	if c.Interactive() {
		return showStrip(c, l, st)
	}
	return nil
}

// readPhaseRun reads the options of phases.
func readPhaseRun(c *kernel.Call) (phaseRun, error) {
	run := phaseRun{opts: phase.Options{Value: c.Value()}, using: c.Opt("using")}
	var err error
	if run.params, err = readPhaseParams(c); err != nil {
		return run, err
	}
	if run.opts.Count, err = phase.ParseCount(c.Opt("count")); err != nil {
		return run, c.Usagef("%v", err)
	}
	if run.opts.MaxIntervals, err = c.PositiveInt("maxintervals"); err != nil {
		return run, err
	}
	if run.maxUsing, err = kernel.ParseSize(c.Opt("maxusing")); err != nil || run.maxUsing <= 0 {
		return run, c.Usagef("maxusing=%s: want a size such as 64MiB", c.Opt("maxusing"))
	}
	if c.Has("interval") {
		d, err := c.Duration("interval")
		if err != nil {
			return run, err
		}
		if d <= 0 {
			return run, c.Usagef("interval=%s: want a positive duration such as 100ms", c.Opt("interval"))
		}
		run.opts.Interval = int64(d)
	}
	return run, nil
}

// readPhaseParams reads the detector's parameters; phase.Params.Check
// rejects thresholds that are not numbers from 0 to 1.
func readPhaseParams(c *kernel.Call) (phase.Params, error) {
	var p phase.Params
	var err error
	if p.Window, err = c.Int("window"); err != nil {
		return p, err
	}
	if p.Eps, err = c.Float("eps"); err != nil {
		return p, err
	}
	if p.Delta, err = c.Float("delta"); err != nil {
		return p, err
	}
	if p.Strict, err = c.Bool("strict"); err != nil {
		return p, err
	}
	if p.MaxCells, err = c.PositiveInt("maxcells"); err != nil {
		return p, err
	}
	if err := p.Check(); err != nil {
		return p, c.Usagef("%v", err)
	}
	return p, nil
}
