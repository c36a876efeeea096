package plotting

import (
	"bytes"
	"fmt"

	"github.com/proflens/proflens/phase"
)

// Geometry of a phase strip.
const (
	stripWidth     = 900.0
	stripHeight    = 28.0
	stripLegendRow = 18.0
	stripLegendCol = 225.0
)

// PhaseStrip draws the intervals of a phases run as one strip, each
// interval a cell coloured by its phase, placed by time (by position in a
// series), with the legend of the phases under it: the picture an
// explorable phases view is clicked on. Interval i's group has data-pl-id
// iv-i, phase k's legend entry ph-k, and both data-pl-group ph-k, so that a
// view can pick out a phase's intervals; marked intervals are outlined.
// Tooltips give the interval, its phase, its time and its samples.
func PhaseStrip(v *phase.Vectors, r *phase.Result, title string, marked func(i int) bool) ([]byte, error) {
	n := v.Len()
	if n == 0 || len(r.Of) != n {
		return nil, fmt.Errorf("phase strip: %d intervals, %d phase assignments", n, len(r.Of))
	}
	var shown []*phase.Phase
	for _, ph := range r.Phases {
		if ph.Intervals > 0 {
			shown = append(shown, ph)
		}
	}
	perRow := int(stripWidth / stripLegendCol)
	rows := (len(shown) + perRow - 1) / perRow
	var buf bytes.Buffer
	s := newSVG(&buf, stripWidth+2*margin, header+stripHeight+8+float64(rows)*stripLegendRow+margin)
	s.text(margin, 15, 0, "start", title)
	t0, t1 := v.Intervals[0].Start, v.Intervals[n-1].End
	x := func(i int, end bool) float64 {
		if v.Series || t1 <= t0 {
			if end {
				i++
			}
			return margin + stripWidth*float64(i)/float64(n)
		}
		t := v.Intervals[i].Start
		if end {
			t = v.Intervals[i].End
		}
		return margin + stripWidth*float64(t-t0)/float64(t1-t0)
	}
	for i := range n {
		id := int(r.Of[i])
		x0, x1 := x(i, false), x(i, true)
		s.printf(`<g class="pl-n" data-pl-id="iv-%d" data-pl-group="ph-%d"><title>%s</title>`, i, id, esc(intervalTip(v, r, i)))
		outline := ""
		if marked != nil && marked(i) {
			outline = ` stroke="#000" stroke-width="2"`
		}
		s.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/></g>`+"\n", x0, header, max(x1-x0, 0.5), stripHeight, phaseColor(r, id), outline)
	}
	for k, ph := range shown {
		lx, ly := margin+float64(k%perRow)*stripLegendCol, header+stripHeight+8+float64(k/perRow)*stripLegendRow
		label := fmt.Sprintf("%d %s (%d)", ph.ID, ph.Label, ph.Intervals)
		s.printf(`<g class="pl-n" data-pl-id="ph-%d" data-pl-group="ph-%d"><title>phase %d %s: %d intervals; click to pick them out</title>`, ph.ID, ph.ID, ph.ID, esc(ph.Label), ph.Intervals)
		s.printf(`<rect x="%.2f" y="%.2f" width="12" height="12" fill="%s"/>`, lx, ly, ph.Color)
		s.text(lx+16, ly+10, 0, "start", fit(label, stripLegendCol-20))
		s.closeGroup()
	}
	if err := s.close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// intervalTip is an interval's tooltip.
func intervalTip(v *phase.Vectors, r *phase.Result, i int) string {
	ph := r.Phase(int(r.Of[i]))
	label := ""
	if ph != nil && ph.Label != "" {
		label = " (" + ph.Label + ")"
	}
	when := fmt.Sprintf("%.3f–%.3f s", float64(v.Intervals[i].Start)/1e9, float64(v.Intervals[i].End)/1e9)
	if v.Series {
		when = fmt.Sprintf("profile %d of the series", i)
	}
	if i < len(v.Samples) {
		when += fmt.Sprintf(" · %d samples", v.Samples[i])
	}
	return fmt.Sprintf("interval %d · phase %d%s\n%s", i, r.Of[i], label, when)
}
