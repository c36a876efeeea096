package commands

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
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

// phasesKey keeps a profile's last phases run.
var phasesKey = kernel.NewKey[*PhaseState]("phases")

// LastPhases returns the last phases run of l, or nil.
func LastPhases(l *kernel.Loaded) *PhaseState { return phasesKey.Get(l) }

// phaseRun is what one detection uses.
type phaseRun struct {
	params   phase.Params
	opts     phase.Options
	using    string // saved set to reuse, "" for none
	maxUsing int64  // most bytes read from it; 0 for the default
}

// lastPhases returns the last phases run of the call's profile, running
// phases with the default options when there is none; the caller keeps it
// once it has succeeded. similarity and timeline read it.
func lastPhases(c *kernel.Call) (*PhaseState, error) {
	if l := c.Profile(); phasesKey.Get(l) != nil && phasesKey.Get(l).Result != nil {
		return phasesKey.Get(l), nil
	}
	return detectPhases(c, phaseRun{params: phase.DefaultParams(), opts: phase.Options{Value: c.Value()}})
}

// detectPhases builds the interval vectors of the call's tree over its
// view's names and runs the detector, carrying earlier labels from the
// profile's last run. It changes nothing in the session: the caller keeps
// the result once the command has succeeded.
func detectPhases(c *kernel.Call, run phaseRun) (*PhaseState, error) {
	l := c.Profile()
	view, err := c.View()
	if err != nil {
		return nil, err
	}
	t, dims, chosen := c.Tree(), phaseDims(view), ""
	if p := t.Profile; p.Timed && p.Intervals == nil {
		if run.opts.Interval == 0 {
			run.opts.Interval, chosen = phase.DefaultInterval(t, dims, run.params)
		}
		if run.opts.Count == phase.CountSelf && !run.params.Strict && run.params.Spread == 0 {
			run.params.Spread = phase.Spread(t, dims)
		}
	}
	v, err := phase.Build(c.Ctx, t, dims, run.opts)
	if err != nil {
		return nil, phaseError(l.Name, err)
	}
	var seed []*phase.Phase
	if run.using != "" {
		saved, err := readSaved(c, run.using, run.maxUsing)
		if err != nil {
			return nil, phaseError(l.Name+" using="+run.using, err)
		}
		if seed, err = saved.Seed(v.Names, run.params.MaxCells); err != nil {
			return nil, phaseError(l.Name+" using="+run.using, err)
		}
	}
	r, err := phase.Detect(c.Ctx, v, run.params, seed)
	if err != nil {
		return nil, phaseError(l.Name, err)
	}
	st := &PhaseState{Labels: map[int]string{}, Count: run.opts.Count, Vectors: v, Result: r}
	for _, ph := range r.Phases {
		if ph.Label != "" {
			st.Labels[ph.ID] = ph.Label // from the saved set
		}
	}
	if phasesKey.Get(l) != nil {
		carryLabels(phasesKey.Get(l), st)
	}
	applyLabels(st)
	st.Note = phaseNote(c.Subject(), st, len(seed), run.using)
	if chosen != "" {
		st.Note += "; the interval is the default, for " + chosen + " (interval=D sets another)"
	}
	return st, nil
}

// limitOptions name the option that raises each of phase's limits.
var limitOptions = map[string]string{"intervals": "maxintervals", "cells": "maxcells", "bytes": "maxusing"}

// phaseError wraps an error of the phase package; a limit error also says
// which option raises the limit.
func phaseError(what string, err error) error {
	var le *phase.LimitError
	switch {
	case errors.As(err, &le) && le.Memory:
		return fmt.Errorf("phases %s: %w (the limit is what half of this machine's memory holds)", what, err)
	case errors.As(err, &le):
		return fmt.Errorf("phases %s: %w; or raise the limit with %s=", what, err, limitOptions[le.Limit])
	}
	return fmt.Errorf("phases %s: %w", what, err)
}

// readSaved reads a saved phase set of at most limit bytes. Only regular
// files are read: a device never ends and a FIFO blocks until a writer
// comes.
func readSaved(c *kernel.Call, file string, limit int64) (*phase.Saved, error) {
	path := c.Path(file)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file: want a phase set written by phases save=FILE.json", file, fileKind(fi.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return phase.ReadSaved(f, limit)
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

// phaseNote says what a run was; subject names the profile and the
// filters it was read under.
func phaseNote(subject string, st *PhaseState, seeded int, using string) string {
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
	s := fmt.Sprintf("%s: %d %s, count=%s over %d names of the current view; window=%d eps=%g delta=%g; %s",
		subject, v.Len(), unit, st.Count, len(v.Names), r.Params.Window, r.Params.Eps, r.Params.Delta, kernel.CountOf(n, "phase"))
	if seeded > 0 {
		s += fmt.Sprintf("; %d saved phases from %s", seeded, using)
	}
	if D := r.Params.Spread; D > 1 {
		m := float64(r.Params.Window) * meanSamples(v)
		s += fmt.Sprintf("; eps and delta are compared with cosines corrected for sampling noise: the samples spread "+
			"over %.1f names, so a steady phase's window of about %.0f samples reads %.2f", D, m, phase.SteadyCosine(D, m))
	}
	if !r.Params.Strict {
		s += fmt.Sprintf("; %s of blips and transitions (phases shorter than the window) went to their neighbours (strict=true keeps them)",
			kernel.CountOf(r.Settled, "interval"))
	}
	return s
}

// meanSamples returns the mean number of samples of v's intervals that
// have any.
func meanSamples(v *phase.Vectors) float64 {
	var sum, n float64
	for _, s := range v.Samples {
		if s > 0 {
			sum, n = sum+float64(s), n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n
}
