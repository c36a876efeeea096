package plotting

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// The blueprint's scales and spacing, in pixels.
const (
	blueprintHeight = 200.0 // a box of Blueprint.Height (by default, the tallest)
	blueprintMinH   = 3.0
	blueprintWidth  = 120.0 // a box of Blueprint.Width calls (by default, the widest or blueprintCalls)
	blueprintMinW   = 6.0
	blueprintCalls  = 1000 // the least default Width: boxes called a few times stay thin
	blueprintGapX   = 12.0
	blueprintGapY   = 30.0
	blueprintLegend = 16.0 // the legend line under the title
	// A box is at most blueprintStretch times the full height or width,
	// whatever scale the caller asks for, which bounds the picture.
	blueprintStretch = 20.0
)

// Block is one box of a blueprint picture, in pixels; Item indexes
// Pic.Items.
type Block struct {
	X, Y, W, H float64
	Item       int32
}

// scales are a blueprint picture's references: the value drawn
// blueprintHeight tall and the count drawn blueprintWidth wide.
type scales struct{ height, width float64 }

func (s scales) h(total int64) float64 {
	return math.Max(blueprintMinH, blueprintHeight*float64(total)/s.height)
}

// w is linear in the logarithm of 1 + calls: a box called once is a little
// wider than one never seen entered (calls 0, the thinnest).
func (s scales) w(calls int64) float64 {
	return blueprintMinW + (blueprintWidth-blueprintMinW)*math.Log1p(float64(max(calls, 0)))/math.Log1p(s.width)
}

// scalesOf returns the scales of p: the caller's, or else the tallest drawn
// box and the widest (at least blueprintCalls), within blueprintStretch of
// the tallest and widest.
func scalesOf(p *Pic, bp *Blueprint, calls func(it *Item) int64) scales {
	var tall, wide int64
	for i := range p.Items {
		tall, wide = max(tall, p.Items[i].Total), max(wide, calls(&p.Items[i]))
	}
	s := scales{height: float64(bp.Height), width: float64(bp.Width)}
	if s.height <= 0 {
		s.height = float64(tall)
	}
	if s.width <= 0 {
		s.width = float64(max(wide, blueprintCalls))
	}
	s.height = math.Max(math.Max(s.height, float64(tall)/blueprintStretch), 1)
	// log(1+width)·stretch ≥ log(1+wide) keeps the widest box within the stretch
	s.width = math.Max(math.Max(s.width, math.Expm1(math.Log1p(float64(wide))/blueprintStretch)), 1)
	return s
}

// BlueprintLayout lays p out as a Profiling Blueprint: each item a box as
// tall as its total (linear) and as wide as its call count (log scale),
// its callees below it, left to right in drawing order, each parent centred
// over its callees. calls gives an item's count (0 for a fold mark). A
// subtree takes the width of its widest row of boxes, so boxes never
// overlap.
func BlueprintLayout(p *Pic, s scales, calls func(it *Item) int64) []Block {
	out := make([]Block, len(p.Items))
	span := make([]float64, len(p.Items)) // subtree widths
	var measure func(i int32) float64
	measure = func(i int32) float64 {
		it := &p.Items[i]
		out[i].W, out[i].H = s.w(calls(it)), s.h(it.Total)
		kids := 0.0
		for k, c := range it.Kids {
			if k > 0 {
				kids += blueprintGapX
			}
			kids += measure(c)
		}
		span[i] = math.Max(out[i].W, kids)
		return span[i]
	}
	var place func(i int32, x, y float64)
	place = func(i int32, x, y float64) {
		b := &out[i]
		b.X, b.Y, b.Item = x+(span[i]-b.W)/2, y, i
		kids := -blueprintGapX
		for _, c := range p.Items[i].Kids {
			kids += span[c] + blueprintGapX
		}
		kx := x + (span[i]-kids)/2
		for _, c := range p.Items[i].Kids {
			place(c, kx, y+b.H+blueprintGapY)
			kx += span[c] + blueprintGapX
		}
	}
	x := 0.0
	for _, t := range p.Top {
		measure(t)
		place(t, x, 0)
		x += span[t] + blueprintGapX
	}
	return out
}

// blueprintPainter is the state of one blueprint picture.
type blueprintPainter struct {
	*canvas
	bp     *Blueprint
	src    *blueprintSource
	blocks []Block
	itemOf map[int32]int32  // view node → item, for the drawn ones
	badges map[int32]string // view node → pattern letters
	top    float64          // y of the first row
}

// paintBlueprint draws p as a Profiling Blueprint: edges from the bottom
// of each caller to the top of its callees, the boxes with their labels and
// pattern badges, and each recursive call as an edge from its caller back
// up to the box it calls again (the paper's crossing edge); the recursive
// call's own box, where the call tree has it, is outlined in the edge's
// colour.
func paintBlueprint(w io.Writer, p *Pic, o Options) error {
	bp := o.Blueprint
	src := newBlueprintSource(bp, o.Roots)
	calls := func(it *Item) int64 {
		if len(it.Nodes) == 0 {
			return 0
		}
		return bp.Boxes.Boxes[src.box[it.Nodes[0]]].Calls
	}
	s := scalesOf(p, bp, calls)
	blocks := BlueprintLayout(p, s, calls)
	lines := legend(bp, s)
	width := float64(max(len([]rune(title(p, o))), len([]rune(lines)))) * charWidth
	height := 0.0
	for _, b := range blocks {
		width, height = math.Max(width, b.X+b.W+4*blueprintGapX), math.Max(height, b.Y+b.H)
	}
	top := header + blueprintLegend + margin
	c := &blueprintPainter{canvas: newCanvas(w, p, o, "b", width+2*margin, top+height+blueprintGapY+margin),
		bp: bp, src: src, blocks: blocks, itemOf: map[int32]int32{}, badges: badges(bp), top: top}
	for i := range p.Items {
		if it := &p.Items[i]; len(it.Nodes) == 1 {
			c.itemOf[it.Nodes[0]] = int32(i)
		}
	}
	c.text(margin, header+11, 0, "start", lines)
	c.edges()
	for i := range blocks {
		c.box(int32(i))
	}
	c.recursion()
	return c.close()
}

// legend is the line under the title: what height and width stand for.
func legend(bp *Blueprint, s scales) string {
	vt := bp.Boxes.Value
	order := "callees by value"
	if bp.Boxes.Timed {
		order = "callees in order of first call"
	}
	width := fmt.Sprintf("width: %s from %s, log (%.0f px = %s)", analysis.Noun(bp.Boxes.Counts), bp.Boxes.Counts, blueprintWidth, countText(int64(s.width)))
	if bp.Boxes.Counts == "" {
		width = "width: no call counts (every box thin)"
	}
	return fmt.Sprintf("height: %s, linear (%.0f px = %s) · %s · %s", vt.Type, blueprintHeight, Amount(int64(s.height), vt), width, order)
}

// badges returns the letters of the patterns about each view node.
func badges(bp *Blueprint) map[int32]string {
	out := map[int32]string{}
	for _, p := range bp.Patterns {
		n := bp.Boxes.Boxes[p.Box].Node
		if !strings.Contains(out[n], p.Letter) {
			letters := []byte(out[n] + p.Letter)
			slices.Sort(letters)
			out[n] = string(letters)
		}
	}
	return out
}

// edges draws every call edge: from the bottom centre of the caller to the
// top centre of the callee.
func (c *blueprintPainter) edges() {
	c.printf(`<g fill="none" stroke="#888">`)
	for i, b := range c.blocks {
		if pa := c.p.Items[i].Parent; pa >= 0 {
			q := c.blocks[pa]
			c.printf(`<path d="M%.2f %.2fL%.2f %.2f"/>`, margin+q.X+q.W/2, c.top+q.Y+q.H, margin+b.X+b.W/2, c.top+b.Y)
		}
	}
	c.printf("</g>\n")
}

// box draws item i: its box, a label where it fits (along the box when
// the box is taller than wide), and its pattern badge.
func (c *blueprintPainter) box(i int32) {
	b, it := c.blocks[i], &c.p.Items[i]
	x, y := margin+b.X, c.top+b.Y
	c.open(nodeID(c.p, "b", i), c.tip(i), outline(c.p, i, b.W))
	stroke := `stroke="#444" stroke-width="0.6"`
	if len(it.Nodes) == 1 {
		switch bx := c.bx(it.Nodes[0]); {
		case bx.Recursive >= 0: // a recursive call, as its crossing edge
			stroke = `stroke="#c0392b" stroke-width="1.2" stroke-dasharray="4 2"`
		case bx.Calls == 0: // never seen entered: the count is unknown
			stroke += ` stroke-dasharray="2 2"`
		}
	}
	c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" %s/>`, x, y, b.W, b.H, c.boxFill(i), stroke)
	l := label(c.p, it)
	switch {
	case b.W >= b.H:
		if s := l.fit(b.W - 4); s != "" && b.H >= fontSize+2 {
			c.centred(x+b.W/2, y+b.H/2, 0, s)
		}
	case b.W >= 9: // a rotated label needs the height of its letters
		if s := l.fit(b.H - 6); s != "" {
			c.text(x+b.W/2+fontSize*0.35, y+b.H-3, -90, "start", s)
		}
	}
	if len(it.Nodes) == 1 {
		if letters := c.badges[it.Nodes[0]]; letters != "" {
			r := 4 + 3.5*float64(len(letters))
			c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="14" rx="7" fill="#fff" stroke="#000" stroke-width="0.8"/>`, x+b.W-2, y-7, 2*r)
			c.printf(`<text x="%.2f" y="%.2f" text-anchor="middle" font-size="10" font-weight="bold">%s</text>`, x+b.W-2+r, y+3.5, letters)
		}
	}
	c.closeGroup()
}

// bx returns the box of view node n.
func (c *blueprintPainter) bx(n int32) *blueprint.Box { return &c.bp.Boxes.Boxes[c.src.box[n]] }

// boxFill is the paper's shading where mutation data says (grey mutates,
// yellow does not), else the colour of the name.
func (c *blueprintPainter) boxFill(i int32) string {
	if it := &c.p.Items[i]; len(it.Nodes) == 1 {
		switch c.bx(it.Nodes[0]).Mutates {
		case blueprint.Mutates:
			return "#a9a9a9"
		case blueprint.Pure:
			return "#f6dd6b"
		}
	}
	return c.fill(int(i))
}

// recursion draws each recursive call as an edge from the bottom of its
// caller back up to the top of the box it calls again (an ancestor, or the
// caller itself for the recursion inside a box), bowing out to the right,
// with an arrowhead and a tooltip.
func (c *blueprintPainter) recursion() {
	c.printf(`<defs><marker id="b-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L8 4L0 8z" fill="#c0392b"/></marker></defs>` + "\n")
	noun, src := analysis.Noun(c.bp.Boxes.Counts), c.bp.Boxes.Counts
	for i := range c.blocks {
		it := &c.p.Items[i]
		if len(it.Nodes) != 1 {
			continue
		}
		bx := c.bx(it.Nodes[0])
		if bx.Recursion > 0 {
			c.crossing(int32(i), int32(i), fmt.Sprintf("recursion (pattern F): %s calls itself\n%s %s (%s), inside this box",
				it.Name, noun, countText(bx.Recursion), src))
		}
		for _, k := range bx.Kids {
			kb := &c.bp.Boxes.Boxes[k]
			if kb.Recursive < 0 {
				continue
			}
			anc := &c.bp.Boxes.Boxes[kb.Recursive]
			if a, ok := c.itemOf[anc.Node]; ok {
				c.crossing(int32(i), a, fmt.Sprintf("recursion (pattern F): %s calls back %s\n%s %s (%s)\nits %s %s is inside %s's",
					it.Name, anc.Name, noun, countText(kb.Calls), src, c.bp.Boxes.Value.Type, Amount(kb.Total, c.bp.Boxes.Value), anc.Name))
			}
		}
	}
}

// crossing draws an edge from the bottom of item from back up to the top
// of item to.
func (c *blueprintPainter) crossing(from, to int32, tip string) {
	b, q := c.blocks[from], c.blocks[to]
	x0, y0 := margin+b.X+b.W/2, c.top+b.Y+b.H
	x1, y1 := margin+q.X+q.W*0.75, c.top+q.Y
	bow := math.Max(x0, x1) + 2*blueprintGapX + 0.1*(y0-y1)
	c.printf(`<g class="pl-rec"><title>%s</title><path d="M%.2f %.2fC%.2f %.2f %.2f %.2f %.2f %.2f" fill="none" stroke="#c0392b" stroke-width="1.5" marker-end="url(#b-arrow)"/></g>`+"\n",
		esc(tip), x0, y0, bow, y0+blueprintGapY, bow, y1-blueprintGapY, x1, y1)
}

// tip is a box's tooltip: the usual lines (name, totals, handle,
// commands), with the call count and its source, the first call, and the
// patterns about the box.
func (c *blueprintPainter) tip(i int32) string {
	t := tip(c.p, i, c.o)
	it := &c.p.Items[i]
	if len(it.Nodes) != 1 {
		return t
	}
	bx := c.bx(it.Nodes[0])
	name, rest, _ := strings.Cut(t, "\n")
	extra := fmt.Sprintf("%s %s (%s)", analysis.Noun(c.bp.Boxes.Counts), countText(bx.Calls), c.bp.Boxes.Counts)
	if c.bp.Boxes.Counts == "" {
		extra = "calls unknown"
	}
	if bx.First >= 0 {
		extra += " · first at " + analysis.FormatValue(bx.First, "nanoseconds")
	}
	for _, p := range c.bp.Patterns {
		if p.Box == c.src.box[it.Nodes[0]] {
			extra += "\npattern " + p.Letter + ": " + blueprint.PatternNames[p.Letter] + c.related(p)
		}
	}
	return name + "\n" + extra + "\n" + rest
}

// related names a pattern's related boxes: " (with b, c)".
func (c *blueprintPainter) related(p blueprint.Pattern) string {
	var names []string
	for _, r := range p.Related {
		names = append(names, c.bp.Boxes.Boxes[r].Name)
	}
	if len(names) == 0 {
		return ""
	}
	return " (with " + strings.Join(names, ", ") + ")"
}

// countText writes a count with thousands separators.
func countText(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// blueprintFor is the blueprint kind's source: the boxes below o.Roots.
func blueprintFor(o *Options, _ *compaction.View) source {
	return newBlueprintSource(o.Blueprint, o.Roots)
}
