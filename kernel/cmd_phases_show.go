package kernel

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/phase"
	"github.com/proflens/proflens/plotting"
)

// heaviest is how many names of a phase vector the table shows.
const heaviest = 3

// tableRows is the most phases the phases table lists.
const tableRows = 100

// phaseTable renders the phases that occur: id, label, colour (a swatch in
// HTML), intervals, share of time and the heaviest names of the vector.
// Beyond tableRows phases it lists the tableRows with most intervals, in
// id order, and says so.
func phaseTable(name string, st *PhaseState) jupyter.Bundle {
	v, r := st.Vectors, st.Result
	var span int64
	dur := map[int32]int64{} // per phase id: time covered
	for i, iv := range v.Intervals {
		span += iv.End - iv.Start
		dur[r.Of[i]] += iv.End - iv.Start
	}
	shown, of := tablePhases(r)
	t := &Table{Columns: []string{"id", "label", "colour", "intervals", "share", "heaviest names"}, Note: st.Note}
	for _, ph := range shown {
		share := float64(dur[int32(ph.ID)]) / float64(max(span, 1))
		swatch := Cell{Text: ph.Color, Value: ph.Color, HTML: `<span style="display:inline-block;width:1.2em;height:0.9em;vertical-align:middle;background:` +
			ph.Color + `"></span> ` + ph.Color}
		t.Rows = append(t.Rows, []any{ph.ID, ph.Label, swatch, ph.Intervals,
			Cell{Text: strconv.FormatFloat(100*share, 'f', 1, 64) + "%", Value: share}, topNames(r.Names, ph.Vector())})
	}
	if of > len(shown) {
		t.Note += fmt.Sprintf("; the table lists the %d of %d phases with most intervals", len(shown), of)
	}
	return t.Bundle()
}

// tablePhases returns the phases with intervals, at most tableRows of
// them: those with most intervals (the lower id on a tie), in id order;
// and how many have intervals.
func tablePhases(r *phase.Result) ([]*phase.Phase, int) {
	var list []*phase.Phase
	for _, ph := range r.Phases {
		if ph.Intervals > 0 {
			list = append(list, ph)
		}
	}
	n := len(list)
	if n > tableRows {
		slices.SortStableFunc(list, func(a, b *phase.Phase) int { return cmp.Compare(b.Intervals, a.Intervals) })
		list = list[:tableRows]
		slices.SortFunc(list, func(a, b *phase.Phase) int { return cmp.Compare(a.ID, b.ID) })
	}
	return list, n
}

// topNames lists the heaviest weights of a unit vector, "name 0.98, …".
func topNames(names []string, vec []float64) string {
	idx := make([]int, 0, len(vec))
	for j, x := range vec {
		if x > 0 {
			idx = append(idx, j)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return vec[idx[a]] > vec[idx[b]] })
	var parts []string
	for _, j := range idx[:min(heaviest, len(idx))] {
		parts = append(parts, fmt.Sprintf("%s %.2f", names[j], vec[j]))
	}
	return strings.Join(parts, ", ")
}

// phaseState returns l's last phases run, running phases with the default
// options when there is none; the caller keeps it once it has succeeded.
func phaseState(c *Call, l *Loaded) (*PhaseState, error) {
	if l.Phases != nil && l.Phases.Result != nil {
		return l.Phases, nil
	}
	return detectPhases(c, l, phaseRun{params: phase.DefaultParams(), opts: phase.Options{Value: l.Value}})
}

func runLabel(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	if len(c.Args) != 2 {
		return c.Usagef("want a phase id and a label")
	}
	id, err := strconv.Atoi(c.Args[0])
	if err != nil {
		return c.Usagef("phase %q is not a number: use an id from the phases table", c.Args[0])
	}
	if l.Phases == nil || l.Phases.Result == nil {
		return fmt.Errorf("label: %s has no phases yet: run phases first", l.Name)
	}
	ph := l.Phases.Result.Phase(id)
	if ph == nil {
		return fmt.Errorf("label: %s has no phase %d: use an id from the phases table", l.Name, id)
	}
	l.Phases.Labels[id] = c.Args[1]
	ph.Label = c.Args[1]
	c.Out.Display(phaseTable(l.Name, l.Phases), nil)
	return nil
}

func runSimilarity(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	st, err := phaseState(c, l)
	if err != nil {
		return err
	}
	s, err := phase.NewSimilarity(c.Ctx, st.Vectors, st.Result.Params.Window, phase.MaxCells, st.Result.Params.MaxCells)
	if err != nil {
		return phaseError(l.Name, err)
	}
	svg, err := plotting.SimilarityChart(s, st.Result, "similarity of "+l.Name)
	if err != nil {
		return fmt.Errorf("similarity %s: %w", l.Name, err)
	}
	alt := fmt.Sprintf("similarity of %s: %d intervals", l.Name, s.N)
	if s.Averaged() {
		alt += fmt.Sprintf(", averaged into %d×%d cells", s.Side(), s.Side())
	}
	l.Phases, l.Picture = st, svg
	c.Picture(svg, alt)
	return nil
}

func runTimeline(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	st, err := phaseState(c, l)
	if err != nil {
		return err
	}
	svg, err := timelinePicture(l.Name, st)
	if err != nil {
		return err
	}
	l.Phases, l.Picture = st, svg
	c.Picture(svg, timelineText(l.Name, st))
	return nil
}

// timelineBins is the most intervals a timeline draws: longer runs are
// merged (phase.Coarsen), since a picture a few hundred pixels wide shows
// no more, and drawing costs about a microsecond and 2 KB per interval.
const timelineBins = 2000

func timelinePicture(name string, st *PhaseState) ([]byte, error) {
	v, r := phase.Coarsen(st.Vectors, st.Result, timelineBins)
	svg, err := plotting.TimelineChart(v, r, "phases of "+name)
	if err != nil {
		return nil, fmt.Errorf("timeline %s: %w", name, err)
	}
	return svg, nil
}

// timelineText describes the runs of phases, for text front ends.
func timelineText(name string, st *PhaseState) string {
	v, r := st.Vectors, st.Result
	var b strings.Builder
	fmt.Fprintf(&b, "phases of %s over time:", name)
	runs := 0
	for lo := 0; lo < len(r.Of); runs++ {
		hi := lo
		for hi < len(r.Of) && r.Of[hi] == r.Of[lo] {
			hi++
		}
		if runs == 40 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " %d[%s]", r.Of[lo], span(v, lo, hi))
		lo = hi
	}
	return b.String()
}

func span(v *phase.Vectors, lo, hi int) string {
	if v.Series {
		return fmt.Sprintf("%d–%d", lo, hi-1)
	}
	return fmt.Sprintf("%.2f–%.2fs", float64(v.Intervals[lo].Start)/1e9, float64(v.Intervals[hi-1].End)/1e9)
}
