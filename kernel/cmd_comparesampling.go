package kernel

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
)

var compareSamplingCommand = &Command{
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
	Options:  []Option{mappingOpt},
	Examples: []string{"load demo:eclipse as eclipse", "mapping eclipse <<\nJavaProject class org.eclipse.jdt.internal.core.JavaProject\nJDT-CORE class org.eclipse.jdt.*core.*\nJDT-UI class org.eclipse.jdt.*ui.*\nCORE class org.eclipse.core.*\nJDK class java.*\nend", "compare-sampling mapping=eclipse"},
	Profiles: 1,
	Run:      runCompareSampling,
}

func runCompareSampling(c *Call) error {
	l := c.Profile()
	p := l.Profile
	if len(p.Calls) == 0 {
		return fmt.Errorf("compare-sampling %s: %w", l.Name, analysis.ErrNotEvented)
	}
	em, by, err := c.entityMap(p) // thinning keeps the frames' ids: em serves the thinned profiles too
	if err != nil {
		return err
	}
	fullTree := analysis.NewTree(p)
	full := analysis.NewEntities(fullTree, em, p.DefaultValue)
	fv, fr, phaseErr := entityPhases(c.Ctx, fullTree, em, 0)
	size := analysis.RecordSize(p)
	t := &Table{Title: fmt.Sprintf("%s: samplings compared by %s (%d events)", l.Name, by, len(p.Events)),
		Columns: []string{"sampling", "records", "size", "arcs found", "calls recovered", "calls spurious", "phases ARI"}, Precision: 3}
	t.Rows = append(t.Rows, []any{"recording", size, percentCell(size, size), fmt.Sprintf("%d of %d", len(full.Arcs), len(full.Arcs)), shareCell(1), shareCell(0), ariCell(1, phaseErr)})
	for _, s := range analysis.Settings(p) {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		q, err := analysis.Thin(p, s)
		if err != nil {
			return fmt.Errorf("compare-sampling %s: %v: %w", l.Name, s, err)
		}
		qt := analysis.NewTree(q)
		d := analysis.CompareArcs(full, analysis.NewEntities(qt, em, q.DefaultValue))
		ari := 0.0
		if phaseErr == nil {
			tv, tr, err := entityPhases(c.Ctx, qt, em, fv.Intervals[0].End-fv.Intervals[0].Start)
			if err == nil {
				ari = alignedARI(fv, fr, tv, tr)
			}
		}
		n := analysis.RecordSize(q)
		t.Rows = append(t.Rows, []any{s.String(), n, percentCell(n, size), fmt.Sprintf("%d of %d", d.Found, d.Of), shareCell(d.Recovered), shareCell(d.Spurious), ariCell(ari, phaseErr)})
	}
	t.Note = "calls: the recording's and C-1's from their events, C-2's and C-3's by stack diffs; " +
		"calls recovered: Σ min(thinned, full) ÷ Σ full over the arcs between entities; calls spurious: Σ max(thinned − full, 0) ÷ Σ thinned; " +
		"phases ARI: adjusted Rand index of the phases by entity on the recording's intervals"
	if phaseErr != nil {
		t.Note += fmt.Sprintf("; no phases: %v", phaseErr)
	}
	c.Table(t)
	return nil
}

// shareCell shows a share as a percentage; its JSON is the fraction.
func shareCell(x float64) Cell { return Cell{Text: fmt.Sprintf("%.1f%%", 100*x), Value: x} }

// ariCell shows an adjusted Rand index, or n/a when the recording has no
// phases.
func ariCell(ari float64, err error) any {
	if err != nil {
		return Cell{Text: "n/a", Value: nil}
	}
	return ari
}
