package plotting

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// LayoutDiff is the differential icicle: a flame graph of a difference (see
// analysis.Compare) weighted by both sides, coloured by how each node
// changed from BASE to NEW. Any other view is drawn as a comparison with
// nothing: all its weight is new.
const LayoutDiff = "diff"

// Change is a compacted node's weight on the two sides of a comparison,
// BASE and NEW, in the view's unit.
type Change struct {
	Base, New         int64 // totals
	BaseSelf, NewSelf int64
}

// The differential icicle's legend, under the picture: FlameGraph's colours
// said in words, which its users ask for.
var diffLegend = []string{
	"Red: more weight in NEW than in BASE; blue: less; grey: unchanged. The deeper the colour, the larger the change",
	"relative to the node's own weight (full red: only in NEW, full blue: gone in NEW). Width: BASE + NEW.",
}

const legendRow = 15.0

// paintDiff draws p as an icicle coloured by change.
func paintDiff(w io.Writer, p *Pic, o Options) error {
	change := changes(p.View)
	rects := Flame(p, flameWidth, flameRow)
	bottom := header + float64(p.Depth+1)*flameRow
	c := &canvas{svgWriter: newSVG(w, flameWidth+2*margin, bottom+legendRow*float64(len(diffLegend)+1)+margin),
		p: p, o: o, pal: newPalette(p.View), prefix: "d"}
	c.text(margin, 15, 0, "start", diffTitle(p, o, change))
	for i, r := range rects {
		it := &p.Items[i]
		fill, tip := foldFill, tip(p, int32(i), o)
		if it.Fold == 0 {
			ch := change(it.Nodes[0])
			fill, tip = changeFill(ch), changeTip(p, it, ch)+handle(p, it.Nodes[0], o)
		}
		c.open(nodeID(p, c.prefix, int32(i)), tip, outline(p, int32(i), r.W))
		c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>`,
			margin+r.X, header+r.Y, r.W, r.H-1, fill, separator(r.W, 0.5))
		if l := label(p, it).fit(r.W - 6); l != "" {
			c.text(margin+r.X+3, header+r.Y+r.H-5, 0, "start", l)
		}
		c.closeGroup()
	}
	c.legend(bottom + legendRow)
	return c.close()
}

// changes returns each node's Change: from the base and new value types
// of a difference's view weighted by both sides; for any other view, all
// weight is NEW's.
func changes(v *compaction.View) func(node int32) Change {
	if v.Tree == nil || !v.Tree.Profile.IsDiff() || v.Value != analysis.DiffBoth {
		return func(i int32) Change {
			n := v.Nodes[i]
			return Change{New: n.Total, NewSelf: n.Self}
		}
	}
	bt, bs := v.Totals(analysis.DiffBase)
	nt, ns := v.Totals(analysis.DiffNew)
	return func(i int32) Change { return Change{Base: bt[i], New: nt[i], BaseSelf: bs[i], NewSelf: ns[i]} }
}

// legend writes the colour scale and the legend's words from y down.
func (c *canvas) legend(y float64) {
	x := margin
	for _, s := range []struct {
		r    float64
		word string
	}{{1, "only in NEW"}, {0.5, "grew"}, {0, "unchanged"}, {-0.5, "shrank"}, {-1, "gone in NEW"}} {
		c.printf(`<rect x="%.2f" y="%.2f" width="12" height="10" fill="%s"/>`, x, y-9, rampFill(s.r))
		c.text(x+16, y, 0, "start", s.word)
		x += 16 + float64(len(s.word))*charWidth + 14
	}
	for i, line := range diffLegend {
		c.text(margin, y+legendRow*float64(i+1), 0, "start", line)
	}
}

// diffTitle is the first line: the comparison and its totals.
func diffTitle(p *Pic, o Options, change func(int32) Change) string {
	var sum Change
	for _, r := range p.View.Roots {
		ch := change(r)
		sum.Base, sum.New = sum.Base+ch.Base, sum.New+ch.New
	}
	vt := sideType(p)
	s := fmt.Sprintf("differential icicle · %s: BASE %s → NEW %s (%s)", vt.Type, Amount(sum.Base, vt), Amount(sum.New, vt), relative(sum))
	if o.Profile != "" {
		s = o.Profile + " · " + s
	}
	s += fmt.Sprintf(" · %d drawn", len(p.Items))
	if h := p.Hidden(); h > 0 {
		s += fmt.Sprintf(", %d folded", h)
	}
	return s
}

// sideType is the value type of either side: the view's, without the
// ".both" of a difference's summed value type.
func sideType(p *Pic) analysis.ValueType {
	vt := valueType(p.View)
	vt.Type = strings.TrimSuffix(vt.Type, ".both")
	return vt
}

// changeTip is the start of a node's tooltip: its name, its totals and
// selves on both sides, and the change.
func changeTip(p *Pic, it *Item, ch Change) string {
	vt := sideType(p)
	return fmt.Sprintf("%s\ntotal: BASE %s → NEW %s, %s (%s)\nself: BASE %s → NEW %s, %s (%s)",
		it.Name, Amount(ch.Base, vt), Amount(ch.New, vt), signed(ch.New-ch.Base, vt), relative(ch),
		Amount(ch.BaseSelf, vt), Amount(ch.NewSelf, vt), signed(ch.NewSelf-ch.BaseSelf, vt),
		relative(Change{Base: ch.BaseSelf, New: ch.NewSelf}))
}

// signed writes a change with its sign.
func signed(x int64, vt analysis.ValueType) string {
	if x > 0 {
		return "+" + Amount(x, vt)
	}
	return Amount(x, vt)
}

// relative is the change of the totals relative to BASE: "+25.0%", "new"
// when BASE has none.
func relative(ch Change) string {
	switch {
	case ch.Base == ch.New:
		return "±0%"
	case ch.Base == 0:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(ch.New-ch.Base)/math.Abs(float64(ch.Base)))
}

// changeFill colours a node by the change of its total relative to the
// larger side: red for growth, blue for shrinkage, grey for none.
func changeFill(ch Change) string {
	d := max(abs64(ch.Base), abs64(ch.New))
	if d == 0 {
		return rampFill(0)
	}
	return rampFill(float64(ch.New-ch.Base) / float64(d))
}

// rampFill is the colour of a relative change r in [-1, 1].
func rampFill(r float64) string {
	r = max(-1, min(1, r))
	t := math.Abs(r)
	hi, lo := int(235+20*t+0.5), int(235-185*t+0.5)
	if r > 0 {
		return fmt.Sprintf("#%02x%02x%02x", hi, lo, lo)
	}
	return fmt.Sprintf("#%02x%02x%02x", lo, lo, hi)
}

func abs64(x int64) int64 { return max(x, -x) }
