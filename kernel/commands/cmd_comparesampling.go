package commands

import (
	"errors"
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/phase"
)

var compareSamplingCommand = &kernel.Command{
	Name:    "compare-sampling",
	Summary: "Compare the AVID paper's samplings of a recording with the recording itself, and judge its features (Tables 1 and 2).",
	Doc: "`samplings=control` (the default for a recording without memory events) runs Table 1's six: C-1 and C-2 " +
		"every x events and C-3 every x events' mean time, with x = 1000 and 100 as in the paper for recordings " +
		"of 100,000 events or more (for a shorter one, x is a hundredth of its events and a tenth of that, at " +
		"least 2). `samplings=memory` (the default with memory events) runs Table 2's four, x scaled the same way " +
		"to the memory events: C-1 with M-1, both at the fine x; M-3 with M-1 at the coarse and the fine x; M-3 " +
		"with M-2 every coarse x memory events' mean time. For each, the table gives the thinned recording's size " +
		"(records of one frame or one time: an event is 2, a snapshot its depth + 1) as a share of the " +
		"recording's, and how far it is from the recording under the mapping: of the recording's arcs between " +
		"entities, how many it finds; the weighted share of the recording's calls it recovers on the right arc " +
		"(Σ over arcs of min(right, full) ÷ Σ full); the share of its own calls that are spurious (on an arc " +
		"whose caller did not make them, as C-1's replay does, or beyond the arc's full count); with memory " +
		"events, the share of the objects allocated it recovers (Σ over entities of min(thinned, full) ÷ Σ " +
		"full); and the adjusted Rand index of its phases against the recording's (phases by entity, on the " +
		"recording's intervals; 1 is the same phases, 0 chance). With `features=NAME` (see `features`), a " +
		"column per feature says whether it is evident, partial or not evident, with the counts the sampling " +
		"shows, as the paper's Results column does; the first row judges the recording itself. Without " +
		"`mapping=`, each package (top-level name) is an entity.",
	Options: []kernel.Option{mappingOpt,
		{Name: "features", Doc: "features defined with `features NAME <<`, or a file of them, to judge on each sampling", Kind: kernel.KindFile},
		{Name: "samplings", Doc: "control: Table 1's six; memory: Table 2's four", Values: []string{"control", "memory"}}},
	Examples: []string{"load demo:eclipse as eclipse", "mapping eclipse <<\nJavaProject class org.eclipse.jdt.internal.core.JavaProject\nJDT-CORE class org.eclipse.jdt.*core.*\nJDT-UI class org.eclipse.jdt.*ui.*\nCORE class org.eclipse.core.*\nJDK class java.*\nend",
		"features bug <<\nF-1 at call 1 JDT-UI->JDT-CORE: JDT-CORE->JavaProject >= 20\nF-2 from call 1 JDT-UI->JDT-CORE to end: JDT-CORE->JavaProject >= 51\nF-3 from call 2 JDT-UI->JDT-CORE to end: JDT-CORE->JavaProject = 0\nend",
		"compare-sampling mapping=eclipse features=bug"},
	Profiles: 1,
	Run:      runCompareSampling,
}

func runCompareSampling(c *kernel.Call) error {
	l := c.Profile()
	p := l.Profile
	em, by, err := entityMap(c, p) // thinning keeps the frames' ids: em serves the thinned profiles too
	if err != nil {
		return err
	}
	settings, err := samplingSettings(c, p)
	if err != nil {
		return fmt.Errorf("compare-sampling %s: %w", l.Name, err)
	}
	ref, err := newSamplingRef(c, p, em)
	if err != nil {
		return err
	}
	t := samplingTable(ref, fmt.Sprintf("%s: samplings compared by %s (%d events, %d memory events)", l.Name, by, len(p.Events), ref.memory))
	for _, s := range settings {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		row, err := samplingRow(c, ref, s)
		if err != nil {
			return fmt.Errorf("compare-sampling %s: %v: %w", l.Name, s, err)
		}
		t.Rows = append(t.Rows, row)
	}
	c.Table(t)
	return nil
}

// samplingSettings returns the samplings samplings= names: Table 1's or
// Table 2's, scaled to p.
func samplingSettings(c *kernel.Call, p *analysis.Profile) ([]avid.Sampling, error) {
	_, ms := analysis.MemoryEvents(p)
	which := c.Opt("samplings")
	if which == "" {
		which = "control"
		if len(ms) > 0 {
			which = "memory"
		}
	}
	switch {
	case which == "control" && len(p.Calls) == 0:
		return nil, avid.ErrNotEvented
	case which == "memory" && len(ms) == 0:
		return nil, avid.ErrNoMemory
	case which == "memory":
		return avid.MemorySettings(p), nil
	}
	return avid.Settings(p), nil
}

// samplingRef is the full recording the samplings are measured against.
type samplingRef struct {
	p        *analysis.Profile
	em       *avid.EntityMap
	full     *avid.Entities
	size     int64
	memory   int
	features *avid.Features
	span     avid.Span
	vectors  *phase.Vectors
	phases   *phase.Result
	phaseErr error // why the recording has no phases, or nil
}

func newSamplingRef(c *kernel.Call, p *analysis.Profile, em *avid.EntityMap) (*samplingRef, error) {
	t := analysis.NewTree(p)
	_, ms := analysis.MemoryEvents(p)
	ref := &samplingRef{p: p, em: em, full: avid.NewEntities(t, em, p.DefaultValue), size: avid.RecordSize(p), memory: len(ms), span: avid.RunSpan(p)}
	if c.Has("features") {
		fs, err := featuresOption(c, "features")
		if err == nil {
			err = fs.Check(em)
		}
		if err != nil {
			return nil, err
		}
		ref.features = fs
	}
	ref.vectors, ref.phases, ref.phaseErr = entityPhases(c.Ctx, t, em, 0)
	if ref.phaseErr == nil && len(ref.vectors.Intervals) == 0 {
		ref.phaseErr = errors.New("the recording has no intervals")
	}
	return ref, nil
}

// table starts the table with the recording's own row.
func samplingTable(ref *samplingRef, title string) *kernel.Table {
	t := &kernel.Table{Title: title, Columns: []string{"sampling", "records", "size", "arcs found", "calls recovered", "calls spurious"}, Precision: 3}
	n := len(ref.full.Arcs)
	row := []any{"recording", ref.size, kernel.PercentCell(ref.size, ref.size), fmt.Sprintf("%d of %d", n, n), shareCell(1), shareCell(0)}
	if ref.memory > 0 {
		t.Columns = append(t.Columns, "objects recovered")
		row = append(row, shareCell(1))
	}
	t.Columns = append(t.Columns, "phases ARI")
	row = append(row, ariCell(1, ref.phaseErr))
	if ref.features != nil {
		for _, f := range ref.features.List {
			t.Columns = append(t.Columns, f.Name)
		}
		row = append(row, verdictCells(avid.Judge(ref.p, ref.em, ref.features, ref.span))...)
	}
	t.Rows = [][]any{row}
	t.Note = "calls: the recording's from its events, the samplings' by diffing their stack snapshots; " +
		"calls recovered: Σ min(right, full) ÷ Σ full over the arcs between entities, a call right when its caller made it; " +
		"calls spurious: Σ (wrong + max(right − full, 0)) ÷ Σ thinned"
	if ref.memory > 0 {
		t.Note += "; objects recovered: Σ min(thinned, full) ÷ Σ full of the objects allocated, over the entities"
	}
	t.Note += "; phases ARI: adjusted Rand index of the phases by entity on the recording's intervals"
	if ref.phaseErr != nil {
		t.Note += fmt.Sprintf("; no phases: %v", ref.phaseErr)
	}
	if ref.features != nil {
		t.Note += "; features: evident (every condition holds), partial (the points are there, and the calls or objects " +
			"a failing condition asks for show, fewer), — (not evident)"
	}
	return t
}

// samplingRow thins the recording by s and measures it: size, arcs,
// objects, phases (n/a where the thinned recording has none) and features.
func samplingRow(c *kernel.Call, ref *samplingRef, s avid.Sampling) ([]any, error) {
	th, err := avid.Thin(ref.p, avid.Whole(s))
	if err != nil {
		return nil, err
	}
	q := th.Profile
	qt := analysis.NewTree(q)
	e := avid.NewEntities(qt, ref.em, q.DefaultValue)
	d := avid.CompareArcs(ref.full, e, th.Replays)
	row := []any{s.String(), th.Records, kernel.PercentCell(th.Records, ref.size), fmt.Sprintf("%d of %d", d.Found, d.Of),
		shareCell(d.Recovered), shareCell(d.Spurious)}
	if ref.memory > 0 {
		row = append(row, shareCell(avid.CompareObjects(ref.full.Objects, e.Objects)))
	}
	phaseErr, ari := ref.phaseErr, 0.0
	if phaseErr == nil {
		iv := ref.vectors.Intervals[0]
		var tv *phase.Vectors
		var tr *phase.Result
		if tv, tr, phaseErr = entityPhases(c.Ctx, qt, ref.em, iv.End-iv.Start); phaseErr == nil {
			ari = alignedARI(ref.vectors, ref.phases, tv, tr)
		}
	}
	row = append(row, ariCell(ari, phaseErr))
	if ref.features != nil {
		row = append(row, verdictCells(avid.Judge(q, ref.em, ref.features, ref.span))...)
	}
	return row, nil
}

// verdictCells shows each verdict with the counts the recording shows; its
// JSON is the level.
func verdictCells(vs []avid.Verdict) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		text := v.String()
		out[i] = kernel.Cell{Text: text[len(v.Feature.Name)+1:], Value: v.Level}
	}
	return out
}

// shareCell shows a share as a percentage; its JSON is the fraction.
func shareCell(x float64) kernel.Cell {
	return kernel.Cell{Text: fmt.Sprintf("%.1f%%", 100*x), Value: x}
}

// ariCell shows an adjusted Rand index, or n/a when the recording has no
// phases.
func ariCell(ari float64, err error) any {
	if err != nil {
		return kernel.Cell{Text: "n/a", Value: nil}
	}
	return ari
}
