package commands

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
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
func phaseTable(l *kernel.Loaded, st *PhaseState) jupyter.Bundle {
	v, r := st.Vectors, st.Result
	var span int64
	dur := map[int32]int64{} // per phase id: time covered
	for i, iv := range v.Intervals {
		span += iv.End - iv.Start
		dur[r.Of[i]] += iv.End - iv.Start
	}
	shown, of := tablePhases(r)
	t := &kernel.Table{Columns: []string{"id", "label", "colour", "intervals", "time%", "heaviest names"}, Note: st.Note}
	for _, ph := range shown {
		share := float64(dur[int32(ph.ID)]) / float64(max(span, 1))
		swatch := kernel.Cell{Text: ph.Color, Value: ph.Color, HTML: `<span style="display:inline-block;width:1.2em;height:0.9em;vertical-align:middle;background:` +
			ph.Color + `"></span> ` + ph.Color}
		t.Rows = append(t.Rows, []any{ph.ID, ph.Label, swatch, ph.Intervals,
			kernel.Cell{Text: strconv.FormatFloat(100*share, 'f', 1, 64) + "%", Value: share}, topNames(l.Tree().Names, r.Names, ph.Vector())})
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

// topNames lists the heaviest weights of a unit vector, "name 0.98, …",
// names shortened as every view shortens them (analysis.Names.Short).
func topNames(short *analysis.Names, names []string, vec []float64) string {
	idx := make([]int, 0, len(vec))
	for j, x := range vec {
		if x > 0 {
			idx = append(idx, j)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return vec[idx[a]] > vec[idx[b]] })
	var parts []string
	for _, j := range idx[:min(heaviest, len(idx))] {
		parts = append(parts, fmt.Sprintf("%s %.2f", short.Short(names[j]), vec[j]))
	}
	return strings.Join(parts, ", ")
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
