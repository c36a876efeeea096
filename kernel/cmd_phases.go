package kernel

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/phase"
)

// PhaseState is what phases leaves on a profile: the interval vectors and
// phases of the last run, and the user's labels by phase id of that run.
// A re-run carries each label to the new phases whose vectors match the
// labelled phase's above δ, so labels follow the behaviour, not the id.
type PhaseState struct {
	Labels  map[int]string
	Count   phase.Count
	Vectors *phase.Vectors
	Result  *phase.Result
	Note    string // what the run was: intervals, names, parameters
}

const phasesDoc = "JIVE's phase detection (seed 003): the run is cut into intervals (`interval=D`; by default a round " +
	"length giving about 200; a series of profiles gives one interval per profile), and each interval counts its " +
	"samples per compacted name of the current view, so `level` and `expand` choose the vector's dimensions. " +
	"W_i is the normalized sum of the last `window` intervals; an interval stays in the current phase when " +
	"P·W_i > `eps`, otherwise resumes the best earlier phase above `delta`, otherwise starts a new phase; a " +
	"window with no samples is the empty phase 0. Phases are numbered in order of first appearance and " +
	"coloured along JIVE's red-to-violet bisection.\n\n" +
	"`count=self` (the default) counts samples by their leaf's name: every stack shares its ancestors, so " +
	"counting them (`count=total`) adds a common part to every vector that pushes distinct phases above eps; " +
	"`count=entries` counts frames entered since the thread's previous sample (AVID's stack diffing, closest " +
	"to JIVE's entry counts, but a hot loop sampled twice in place shows no entry). By default a new phase " +
	"is provisional for its first `window` intervals and yields to an earlier phase above `delta` (so a " +
	"returning phase keeps its id in noisy sampled data); `strict=true` applies the paper's rule alone.\n\n" +
	"`save=FILE.json` writes the phases, labels, colours and vectors; `using=FILE.json` reuses a saved set: " +
	"intervals matching a saved phase above delta get its id, label and colour, so runs compare."

func init() {
	Register(&Command{
		Name:    "phases",
		Summary: "Detect program phases over time (JIVE): a table of phases and a timeline.",
		Usage:   "phases [NAME] [interval=D] [window=N] [eps=X] [delta=Y] [count=self|total|entries] [strict=false] [save=FILE.json] [using=FILE.json]",
		Doc:     phasesDoc,
		Options: []Option{
			{Name: "interval", Doc: "interval length (default: a round length giving about 200 intervals)", Kind: KindDuration},
			{Name: "window", Doc: "ω: intervals summed into each window vector", Default: "3", Kind: KindNumber},
			{Name: "eps", Doc: "ε: similarity that keeps the current phase", Default: "0.9", Kind: KindNumber},
			{Name: "delta", Doc: "δ: similarity that resumes an earlier phase", Default: "0.9", Kind: KindNumber},
			{Name: "count", Doc: "what an interval counts per name", Default: "self", Values: []string{"self", "total", "entries"}},
			{Name: "strict", Doc: "the paper's rule only: no provisional new phases", Default: "false", Values: []string{"true", "false"}},
			{Name: "save", Doc: "write the phase set to this JSON file", Kind: KindFile},
			{Name: "using", Doc: "reuse the phases (ids, labels, colours) of this saved JSON file", Kind: KindFile},
		},
		Examples:   []string{"load demo:phasedemo as run", "phases", "phases run window=5 eps=0.95 count=total interval=100ms save=run.json", "phases using=run.json"},
		ProfileArg: true,
		Run:        runPhases,
	})
	Register(&Command{
		Name:       "label",
		Summary:    "Name a phase of the last phases run; labels appear in tables, plots and saved sets.",
		Usage:      `label [NAME] PHASE "text"`,
		Args:       []Arg{{Name: "PHASE", Doc: "phase id, as in the phases table", Kind: KindNumber}, {Name: "TEXT", Doc: "the label (quote it when it has spaces)", Kind: KindText}},
		Examples:   []string{"load demo:phasedemo", "phases", `label 1 "parse numbers"`, `label 0 idle`},
		ProfileArg: true,
		Run:        runLabel,
	})
	Register(&Command{
		Name:    "similarity",
		Summary: "Heatmap of window-vector similarity between intervals, with phase bands.",
		Usage:   "similarity [NAME]",
		Doc: "SimPoint's similarity matrix over JIVE's window vectors: cell (i, j) is W_i·W_j, darker is more " +
			"similar; recurring phases show as dark off-diagonal blocks. The detected phases run as coloured " +
			"bands along both axes. Above 500 intervals, cells average blocks of intervals (the title says so). " +
			"Uses the last phases run of the profile (running phases with its defaults when there is none).",
		Examples:   []string{"load demo:phasedemo", "similarity"},
		ProfileArg: true,
		Run:        runSimilarity,
	})
	Register(&Command{
		Name:    "timeline",
		Summary: "Phases over time as coloured bands, with the sample rate as a line.",
		Usage:   "timeline [NAME]",
		Doc: "Uses the last phases run of the profile (running phases with its defaults when there is none). " +
			"The line is samples per second of each interval (samples per profile for a series): gaps and idle " +
			"stretches show as drops to zero.",
		Examples:   []string{"load demo:phasedemo", "timeline"},
		ProfileArg: true,
		Run:        runTimeline,
	})
}

func runPhases(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	run, err := readPhaseRun(c, l)
	if err != nil {
		return err
	}
	st, err := detectPhases(c, l, run)
	if err != nil {
		return err
	}
	if c.Has("save") {
		path := c.Path(c.Opt("save"))
		err := writeFile(path, func(w io.Writer) error { return phase.Save(st.Result, st.Vectors, st.Count).Write(w) })
		if err != nil {
			return fmt.Errorf("phases save=%s: %w", c.Opt("save"), err)
		}
		st.Note += "; saved to " + c.Opt("save")
	}
	c.Out.Display(phaseTable(l.Name, st), nil)
	return showTimeline(c, l.Name, st)
}

// phaseRun is what one detection uses.
type phaseRun struct {
	params phase.Params
	opts   phase.Options
	using  string // saved set to reuse, "" for none
}

// readPhaseRun reads the options of phases.
func readPhaseRun(c *Call, l *Loaded) (phaseRun, error) {
	run := phaseRun{opts: phase.Options{Value: l.Value}, using: c.Opt("using")}
	p := &run.params
	var err error
	if p.Window, err = c.Int("window"); err != nil {
		return run, err
	}
	if p.Eps, err = c.Float("eps"); err != nil {
		return run, err
	}
	if p.Delta, err = c.Float("delta"); err != nil {
		return run, err
	}
	if p.Strict, err = c.Bool("strict"); err != nil {
		return run, err
	}
	if err := p.Check(); err != nil {
		return run, c.Usagef("%v", err)
	}
	if run.opts.Count, err = phase.ParseCount(c.Opt("count")); err != nil {
		return run, c.Usagef("%v", err)
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

// detectPhases builds the interval vectors over the current view's names,
// runs the detector and keeps the result (and earlier labels) on l.
func detectPhases(c *Call, l *Loaded, run phaseRun) (*PhaseState, error) {
	v, err := phase.Build(l.Tree, viewDims(CompactedView(l)), run.opts)
	if err != nil {
		return nil, fmt.Errorf("phases %s: %w", l.Name, err)
	}
	var seed []*phase.Phase
	if run.using != "" {
		data, err := os.ReadFile(c.Path(run.using))
		if err != nil {
			return nil, fmt.Errorf("phases using=%s: %w", run.using, err)
		}
		saved, err := phase.ReadSaved(data)
		if err != nil {
			return nil, fmt.Errorf("phases using=%s: %w", run.using, err)
		}
		seed = saved.Seed(v.Names)
	}
	r, err := phase.Detect(v, run.params, seed)
	if err != nil {
		return nil, c.Usagef("%v", err)
	}
	st := &PhaseState{Labels: map[int]string{}, Count: run.opts.Count, Vectors: v, Result: r}
	for _, ph := range r.Phases {
		if ph.Label != "" {
			st.Labels[ph.ID] = ph.Label // from the saved set
		}
	}
	if l.Phases != nil {
		carryLabels(l.Phases, st)
	}
	applyLabels(st)
	st.Note = phaseNote(l.Name, st, len(seed), run.using)
	l.Phases = st
	return st, nil
}

// viewDims names each call-tree node by its compacted node's name.
func viewDims(v *compaction.View) *phase.Dims {
	names := make([]string, v.Tree.Len())
	for _, n := range v.Nodes {
		for _, m := range n.Members {
			names[m] = n.Name
		}
	}
	return phase.NewDims(names)
}

// carryLabels gives each phase of st the label of the previous run's
// labelled phase whose vector matches its own best, above δ; the empty
// phase keeps its label.
func carryLabels(old, st *PhaseState) {
	type labelled struct {
		vec   map[string]float64
		label string
	}
	var from []labelled
	for _, ph := range old.Result.Phases {
		if lab, ok := old.Labels[ph.ID]; ok {
			if ph.ID == phase.Empty {
				st.Labels[phase.Empty] = lab
				continue
			}
			from = append(from, labelled{byName(old.Result.Names, ph.Vector()), lab})
		}
	}
	for _, ph := range st.Result.Phases {
		if ph.ID == phase.Empty || len(from) == 0 {
			continue
		}
		vec := ph.Vector()
		best, score := "", st.Result.Params.Delta
		for _, f := range from {
			var dot float64
			for j, x := range vec { // in name order, so the sum is deterministic
				dot += x * f.vec[st.Result.Names[j]]
			}
			if dot > score {
				best, score = f.label, dot
			}
		}
		if best != "" {
			st.Labels[ph.ID] = best
		}
	}
}

func byName(names []string, vec []float64) map[string]float64 {
	m := make(map[string]float64)
	for j, x := range vec {
		if x != 0 {
			m[names[j]] = x
		}
	}
	return m
}

func applyLabels(st *PhaseState) {
	for _, ph := range st.Result.Phases {
		if l, ok := st.Labels[ph.ID]; ok {
			ph.Label = l
		}
	}
}

func phaseNote(name string, st *PhaseState, seeded int, using string) string {
	v, r := st.Vectors, st.Result
	unit := "profiles of the series"
	if !v.Series && v.Len() > 0 {
		unit = "intervals of " + time.Duration(v.Intervals[0].End-v.Intervals[0].Start).String()
	}
	n := 0
	for _, ph := range r.Phases {
		if ph.Intervals > 0 && ph.ID != phase.Empty {
			n++
		}
	}
	s := fmt.Sprintf("%s: %d %s, count=%s over %d names of the current view; window=%d eps=%g delta=%g; %d phases",
		name, v.Len(), unit, st.Count, len(v.Names), r.Params.Window, r.Params.Eps, r.Params.Delta, n)
	if seeded > 0 {
		s += fmt.Sprintf("; %d saved phases from %s", seeded, using)
	}
	return s
}
