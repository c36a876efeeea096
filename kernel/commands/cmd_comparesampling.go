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
	Summary: "Compare the AVID paper's six samplings of an evented recording with the recording itself (its Tables 1–2).",
	Doc: "For C-1 and C-2 every x events and C-3 every x events' mean time, with x = 1000 and 100 as in the " +
		"paper for recordings of 100,000 events or more (for a shorter one, x is a hundredth of its events and " +
		"a tenth of that, at least 2), the table gives the thinned recording's size (records of one frame or " +
		"one time: an event is 2, a snapshot its depth + 1) as a share of the recording's, and how far it is " +
		"from the recording under the mapping: of the recording's arcs between entities, how many it finds; " +
		"the weighted share of the recording's calls it recovers (Σ over arcs of min(thinned, full) ÷ Σ full); " +
		"the share of its own calls that are spurious (Σ max(thinned − full, 0) ÷ Σ thinned: C-1 loses the " +
		"callers of the events it keeps); and the adjusted Rand index of its phases against the recording's " +
		"(phases by entity, on the recording's intervals; 1 is the same phases, 0 chance), where the " +
		"recording has times. Without `mapping=`, each package (top-level name) is an entity.",
	Options:  []kernel.Option{mappingOpt},
	Examples: []string{"load demo:eclipse as eclipse", "mapping eclipse <<\nJavaProject class org.eclipse.jdt.internal.core.JavaProject\nJDT-CORE class org.eclipse.jdt.*core.*\nJDT-UI class org.eclipse.jdt.*ui.*\nCORE class org.eclipse.core.*\nJDK class java.*\nend", "compare-sampling mapping=eclipse"},
	Profiles: 1,
	Run:      runCompareSampling,
}

func runCompareSampling(c *kernel.Call) error {
	l := c.Profile()
	p := l.Profile
	if len(p.Calls) == 0 {
		return fmt.Errorf("compare-sampling %s: %w", l.Name, avid.ErrNotEvented)
	}
	em, by, err := entityMap(c, p) // thinning keeps the frames' ids: em serves the thinned profiles too
	if err != nil {
		return err
	}
	ref := newSamplingRef(c, p, em)
	t := &kernel.Table{Title: fmt.Sprintf("%s: samplings compared by %s (%d events)", l.Name, by, len(p.Events)),
		Columns: []string{"sampling", "records", "size", "arcs found", "calls recovered", "calls spurious", "phases ARI"}, Precision: 3}
	n := len(ref.full.Arcs)
	t.Rows = append(t.Rows, []any{"recording", ref.size, kernel.PercentCell(ref.size, ref.size), fmt.Sprintf("%d of %d", n, n),
		shareCell(1), shareCell(0), ariCell(1, ref.phaseErr)})
	for _, s := range avid.Settings(p) {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		row, err := samplingRow(c, ref, s)
		if err != nil {
			return fmt.Errorf("compare-sampling %s: %v: %w", l.Name, s, err)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = "calls: the recording's and C-1's from their events, C-2's and C-3's by stack diffs; " +
		"calls recovered: Σ min(thinned, full) ÷ Σ full over the arcs between entities; calls spurious: Σ max(thinned − full, 0) ÷ Σ thinned; " +
		"phases ARI: adjusted Rand index of the phases by entity on the recording's intervals"
	if ref.phaseErr != nil {
		t.Note += fmt.Sprintf("; no phases: %v", ref.phaseErr)
	}
	c.Table(t)
	return nil
}

// samplingRef is the full recording the samplings are measured against.
type samplingRef struct {
	p        *analysis.Profile
	em       *avid.EntityMap
	full     *avid.Entities
	size     int64
	vectors  *phase.Vectors
	phases   *phase.Result
	phaseErr error // why the recording has no phases, or nil
}

func newSamplingRef(c *kernel.Call, p *analysis.Profile, em *avid.EntityMap) *samplingRef {
	t := analysis.NewTree(p)
	ref := &samplingRef{p: p, em: em, full: avid.NewEntities(t, em, p.DefaultValue), size: avid.RecordSize(p)}
	ref.vectors, ref.phases, ref.phaseErr = entityPhases(c.Ctx, t, em, 0)
	if ref.phaseErr == nil && len(ref.vectors.Intervals) == 0 {
		ref.phaseErr = errors.New("the recording has no intervals")
	}
	return ref
}

// samplingRow thins the recording by s and measures it: size, arcs, phases (n/a
// where the thinned recording has none).
func samplingRow(c *kernel.Call, ref *samplingRef, s avid.Sampling) ([]any, error) {
	th, err := avid.Thin(ref.p, avid.Whole(s))
	if err != nil {
		return nil, err
	}
	q := th.Profile
	qt := analysis.NewTree(q)
	d := avid.CompareArcs(ref.full, avid.NewEntities(qt, ref.em, q.DefaultValue), th.Replays)
	phaseErr, ari := ref.phaseErr, 0.0
	if phaseErr == nil {
		iv := ref.vectors.Intervals[0]
		var tv *phase.Vectors
		var tr *phase.Result
		if tv, tr, phaseErr = entityPhases(c.Ctx, qt, ref.em, iv.End-iv.Start); phaseErr == nil {
			ari = alignedARI(ref.vectors, ref.phases, tv, tr)
		}
	}
	n := th.Records
	return []any{s.String(), n, kernel.PercentCell(n, ref.size), fmt.Sprintf("%d of %d", d.Found, d.Of),
		shareCell(d.Recovered), shareCell(d.Spurious), ariCell(ari, phaseErr)}, nil
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
