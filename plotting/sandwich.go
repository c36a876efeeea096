package plotting

import (
	"fmt"
	"io"

	"github.com/proflens/proflens/analysis"
)

// LayoutSandwich draws a sandwich (compaction.Sandwich): the view drawn is
// its callees half, an icicle below the target's row, and Options.Callers
// its callers half, an icicle growing upwards from the same row. Both
// halves share the target's width. Without Callers, only the callees are
// drawn.
const LayoutSandwich = "sandwich"

// paintSandwich draws the callers of p's top item above it and p (the
// callees) below. The callers get at most half of the node budget.
func paintSandwich(w io.Writer, p *Pic, o Options) error {
	up := &Pic{View: p.View}
	if v := o.Callers; v != nil {
		src := &topDown{v: v, roots: v.Roots}
		up = choose(src, max(2, orDefault(o.MaxNodes, DefaultMaxNodes)/2), max(1, int64(o.kind.MinShare*float64(p.Scale)))).pic(v, o.Order == OrderName)
		up.Scale = p.Scale
	}
	below, above := Flame(p, flameWidth, flameRow), Flame(up, flameWidth, flameRow)
	mid := float64(up.Depth) * flameRow
	c := &canvas{svgWriter: newSVG(w, flameWidth+2*margin, header+mid+float64(p.Depth+1)*flameRow+margin),
		p: p, o: o, pal: newPalette(p.View), prefix: "s"}
	c.text(margin, 15, 0, "start", sandwichTitle(p, up, o))
	target := ""
	if len(p.Top) > 0 {
		target = p.Items[p.Top[0]].Name
	}
	for i, r := range above {
		if up.Items[i].Depth == 0 { // the target: drawn with the callees
			continue
		}
		c.sandwichBox(up, int32(i), r, header+mid-r.Y, fmt.Sprintf("s-up-%d", i), callerTip(up, int32(i), target))
	}
	for i, r := range below {
		c.sandwichBox(p, int32(i), r, header+mid+r.Y, fmt.Sprintf("s-%d", i), calleeTip(p, int32(i), target))
	}
	return c.close()
}

// sandwichBox draws item i of q as the box r placed at y.
func (c *canvas) sandwichBox(q *Pic, i int32, r Rect, y float64, id, tip string) {
	it := &q.Items[i]
	fill, stroke := foldFill, separator(r.W, 0.5)
	if it.Fold == 0 {
		fill = c.pal.colour(elements(q.View, it.Nodes[0]))
	}
	if it.Depth == 0 && q == c.p { // the target's row
		stroke = ` stroke="#000" stroke-width="1"`
	}
	c.open(id, tip, false)
	c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>`, margin+r.X, y, r.W, r.H-1, fill, stroke)
	if l := label(q, it).fit(r.W - 6); l != "" {
		c.text(margin+r.X+3, y+r.H-5, 0, "start", l)
	}
	c.closeGroup()
}

// sandwichTitle is the first line: the target, its weight and the counts.
func sandwichTitle(p, up *Pic, o Options) string {
	vt := valueType(p.View)
	s := "sandwich"
	if len(p.Top) > 0 {
		s += " · " + p.Items[p.Top[0]].Name
	}
	if o.Profile != "" {
		s = o.Profile + " · " + s
	}
	share := analysis.Percent(p.Scale, p.Total)
	if o.Total != 0 {
		share += " of " + Amount(p.Total, vt)
	}
	return s + fmt.Sprintf(" · %s · %s (%s) · callers above (%d drawn), callees below (%d drawn)",
		vt.Type, Amount(p.Scale, vt), share, max(len(up.Items)-1, 0), len(p.Items))
}

// calleeTip is the tooltip of a callee (or of the target): its totals, and
// its share of the target.
func calleeTip(p *Pic, i int32, target string) string {
	it := &p.Items[i]
	if it.Fold > 0 {
		return tip(p, i, Options{})
	}
	vt := valueType(p.View)
	return fmt.Sprintf("%s\ntotal %s (%s of %s)\nself %s", it.Name, Amount(it.Total, vt), analysis.Percent(it.Total, p.Scale), target,
		Amount(it.Self, vt))
}

// callerTip is the tooltip of a caller: how much of the target is reached
// through it, and how much of that starts there.
func callerTip(p *Pic, i int32, target string) string {
	it := &p.Items[i]
	if it.Fold > 0 {
		return tip(p, i, Options{})
	}
	vt := valueType(p.View)
	return fmt.Sprintf("%s\ncalls %s: %s (%s of it)\nof that, with no caller above: %s", it.Name, target,
		Amount(it.Total, vt), analysis.Percent(it.Total, p.Scale), Amount(it.Self, vt))
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
