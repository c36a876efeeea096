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
	blueprintSameW  = 24.0 // every box's width when there are no counts
	blueprintCalls  = 1000 // the least default Width: boxes called a few times stay thin
	blueprintGapX   = 12.0
	blueprintGapY   = 30.0
	blueprintLegend = 16.0 // the legend line under the title
	blueprintBar    = 6.0  // the start-up chain's bar
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
type scales struct {
	height, width float64
	same          bool // no counts: every box blueprintSameW wide
}

func (s scales) h(total int64) float64 {
	return math.Max(blueprintMinH, blueprintHeight*float64(total)/s.height)
}

// w is linear in the logarithm of 1 + calls: a box called once is a little
// wider than one never seen entered (calls 0, the thinnest).
func (s scales) w(calls int64) float64 {
	if s.same {
		return blueprintSameW
	}
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
	s := scales{height: float64(bp.Height), width: float64(bp.Width), same: bp.Boxes.Counts == ""}
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
	blocks []Block
	itemOf map[int32]int32  // box → item, for the drawn ones
	badges map[int32]string // box → pattern letters
	top    float64          // y of the first row
	bar    float64          // y of the start-up chain's bar, 0 for none
	width  float64          // of the drawing, without its margins
}

// paintBlueprint draws p as a Profiling Blueprint: the start-up chain as
// one thin bar above the program's entry, edges from the bottom of each
// caller to the top of the callees drawn below it, the boxes with their
// labels and pattern badges, and every other call (a box called from
// several, a call back into a box on the stack) as an edge bowing out to
// the right, in red for a recursion (the paper's crossing edge). By
// context, a box that is a call back is outlined in red.
func paintBlueprint(w io.Writer, p *Pic, o Options) error {
	bp := o.Blueprint
	calls := func(it *Item) int64 {
		if b := bp.boxOf(it); b >= 0 {
			return bp.Boxes.Boxes[b].Calls
		}
		return 0
	}
	s := scalesOf(p, bp, calls)
	blocks := BlueprintLayout(p, s, calls)
	lines := legend(bp, s)
	width := float64(max(len([]rune(title(p, o))), len([]rune(lines)))) * charWidth
	height := 0.0
	for _, b := range blocks {
		width, height = math.Max(width, b.X+b.W+4*blueprintGapX), math.Max(height, b.Y+b.H)
	}
	top, bar := header+blueprintLegend+margin, 0.0
	if len(bp.Boxes.Startup) > 0 {
		bar = top + blueprintLegend
		top = bar + blueprintBar + blueprintGapY
		width = math.Max(width, float64(len([]rune(startupLabel(bp.Boxes))))*charWidth)
	}
	c := &blueprintPainter{canvas: newCanvas(w, p, o, "b", width+2*margin, top+height+blueprintGapY+margin),
		bp: bp, blocks: blocks, itemOf: map[int32]int32{}, badges: badges(bp), top: top, bar: bar, width: width}
	for i := range p.Items {
		if b := bp.boxOf(&p.Items[i]); b >= 0 {
			c.itemOf[b] = int32(i)
		}
	}
	c.text(margin, header+11, 0, "start", lines)
	c.startup()
	c.edges()
	for i := range blocks {
		c.box(int32(i))
	}
	c.calls()
	return c.close()
}

// legend is the line under the title: what height and width stand for.
func legend(bp *Blueprint, s scales) string {
	vt := bp.Boxes.Value
	order := "callees by value"
	if bp.Boxes.Timed {
		order = "callees in order of first call"
	}
	by := "one box per function"
	if bp.Boxes.By == blueprint.ByContext {
		by = "one box per call path"
	}
	width := fmt.Sprintf("width: %s, log (%.0f px = %s)", countsNoun(bp.Boxes.Counts), blueprintWidth, countText(int64(s.width)))
	if bp.Boxes.Counts == "" {
		width = "width: no call counts, every box as wide"
		if bp.NoCounts != "" {
			width += " (" + bp.NoCounts + ")"
		}
	}
	return fmt.Sprintf("%s · height: %s, linear (%.0f px = %s) · %s · %s", by, vt.Type, blueprintHeight, Amount(int64(s.height), vt), width, order)
}

// countsNoun says what a blueprint's counts are: "calls from callgrind",
// "entries recovered from samples (lower bounds)".
func countsNoun(src analysis.CountSource) string {
	if src == analysis.CountStackDiffs {
		return "entries recovered from samples (lower bounds)"
	}
	return fmt.Sprintf("%s from %s", analysis.Noun(src), src)
}

// countOf writes a box's or an edge's count: "1,973 calls (callgrind)",
// "at least 84 entries, from samples".
func countOf(src analysis.CountSource, n int64) string {
	switch src {
	case "":
		return "calls unknown"
	case analysis.CountStackDiffs:
		return fmt.Sprintf("at least %s entries, from samples", countText(n))
	}
	return fmt.Sprintf("%s %s (%s)", analysis.Noun(src), countText(n), src)
}

// startupLabel names the start-up chain: "start-up: a → b → c".
func startupLabel(b *blueprint.Blueprint) string {
	return "start-up: " + strings.Join(b.Startup, " → ")
}

// badges returns the letters of the patterns about each box.
func badges(bp *Blueprint) map[int32]string {
	out := map[int32]string{}
	for _, p := range bp.Patterns {
		if !strings.Contains(out[p.Box], p.Letter) {
			letters := []byte(out[p.Box] + p.Letter)
			slices.Sort(letters)
			out[p.Box] = string(letters)
		}
	}
	return out
}

// startup draws the start-up chain as one thin bar over the boxes it
// enters, its names above it, and an edge to each of them.
func (c *blueprintPainter) startup() {
	if c.bar == 0 {
		return
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, t := range c.p.Top {
		if b := c.bp.boxOf(&c.p.Items[t]); b >= 0 && c.bp.Boxes.Boxes[b].Startup {
			x0, x1 = math.Min(x0, c.blocks[t].X), math.Max(x1, c.blocks[t].X+c.blocks[t].W)
		}
	}
	if x0 > x1 {
		return
	}
	b := c.bp.Boxes
	tip := fmt.Sprintf("%s\ntotal %s (%s): the program's start-up, above its entry", startupLabel(b), Amount(b.StartupTotal, b.Value),
		analysis.Percent(b.StartupTotal, c.p.Total))
	c.open("b-startup", tip, false)
	c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#bbb" stroke="#888" stroke-width="0.6"/>`, margin+x0, c.bar, x1-x0, blueprintBar)
	label := startupLabel(b)
	// The label starts over the bar, or further left where it would
	// otherwise run past the picture's right edge (the picture is as wide
	// as the label).
	lx := math.Max(0, math.Min(x0, c.width-float64(len([]rune(label)))*charWidth))
	c.text(margin+lx, c.bar-4, 0, "start", label)
	c.closeGroup()
	c.printf(`<g fill="none" stroke="#888">`)
	for _, t := range c.p.Top {
		if bx := c.bp.boxOf(&c.p.Items[t]); bx >= 0 && b.Boxes[bx].Startup {
			q := c.blocks[t]
			c.printf(`<path d="M%.2f %.2fL%.2f %.2f"/>`, margin+q.X+q.W/2, c.bar+blueprintBar, margin+q.X+q.W/2, c.top+q.Y)
		}
	}
	c.printf("</g>\n")
}

// edges draws the drawing tree's edges: from the bottom centre of the
// caller to the top centre of the callee.
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
	bx := c.bp.boxOf(it)
	switch {
	case bx >= 0 && c.callBack(bx): // a call back into a function on the stack, by context
		stroke = `stroke="#c0392b" stroke-width="1.2" stroke-dasharray="4 2"`
	case bx >= 0 && c.bp.Boxes.Counts != "" && c.bp.Boxes.Boxes[bx].Calls == 0: // never seen entered
		stroke += ` stroke-dasharray="2 2"`
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
	if letters := c.badges[bx]; bx >= 0 && letters != "" {
		r := 4 + 3.5*float64(len(letters))
		c.printf(`<rect x="%.2f" y="%.2f" width="%.2f" height="14" rx="7" fill="#fff" stroke="#000" stroke-width="0.8"/>`, x+b.W-2, y-7, 2*r)
		c.printf(`<text x="%.2f" y="%.2f" text-anchor="middle" font-size="10" font-weight="bold">%s</text>`, x+b.W-2+r, y+3.5, letters)
	}
	c.closeGroup()
}

// callBack reports whether box bx is, by context, a call back into a
// function already on the stack: its edge from its caller is recursive.
func (c *blueprintPainter) callBack(bx int32) bool {
	b := c.bp.Boxes
	if b.By != blueprint.ByContext || b.Boxes[bx].Parent < 0 {
		return false
	}
	for _, e := range b.Edges {
		if e.To == bx && e.From == b.Boxes[bx].Parent {
			return e.Recursive
		}
	}
	return false
}

// boxFill is the paper's shading where mutation data says (grey mutates,
// yellow does not), else the colour of the name.
func (c *blueprintPainter) boxFill(i int32) string {
	if bx := c.bp.boxOf(&c.p.Items[i]); bx >= 0 {
		switch c.bp.Boxes.Boxes[bx].Mutates {
		case blueprint.Mutates:
			return "#a9a9a9"
		case blueprint.Pure:
			return "#f6dd6b"
		}
	}
	return c.fill(int(i))
}

// calls draws every call that the drawing tree does not: a box's calls
// from callers other than the one it is drawn under, calls into a box on
// the stack, and calls of a box by itself, each as an edge from the bottom
// of the caller to the top of the callee bowing out to the right, red for
// a recursion (pattern F), with an arrowhead and a tooltip.
func (c *blueprintPainter) calls() {
	c.printf(`<defs><marker id="b-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L8 4L0 8z" fill="#c0392b"/></marker>` +
		`<marker id="b-call" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0L8 4L0 8z" fill="#888"/></marker></defs>` + "\n")
	b := c.bp.Boxes
	for _, e := range b.Edges {
		from, ok1 := c.itemOf[e.From]
		to, ok2 := c.itemOf[e.To]
		if !ok1 || !ok2 || e.From != e.To && b.Boxes[e.To].Parent == e.From {
			continue // drawn by edges (by context, a call back's crossing edge is an edge of its own)
		}
		fromName, toName := b.Boxes[e.From].Name, b.Boxes[e.To].Name
		switch {
		case e.Recursive && e.From == e.To:
			c.crossing(from, to, true, fmt.Sprintf("recursion (pattern F): %s calls itself\n%s", fromName, countOf(b.Counts, e.Calls)))
		case e.Recursive:
			c.crossing(from, to, true, fmt.Sprintf("recursion (pattern F): %s calls back %s\n%s", fromName, toName, countOf(b.Counts, e.Calls)))
		default:
			c.crossing(from, to, false, fmt.Sprintf("%s calls %s\n%s", fromName, toName, countOf(b.Counts, e.Calls)))
		}
	}
}

// crossing draws an edge from the bottom of item from to the top of item
// to, bowing out to the right: red for a recursion, grey otherwise.
func (c *blueprintPainter) crossing(from, to int32, recursive bool, tip string) {
	b, q := c.blocks[from], c.blocks[to]
	x0, y0 := margin+b.X+b.W/2, c.top+b.Y+b.H
	x1, y1 := margin+q.X+q.W*0.75, c.top+q.Y
	bow := math.Max(x0, x1) + 2*blueprintGapX + 0.1*math.Abs(y0-y1)
	class, stroke, marker := "pl-call", `stroke="#888" stroke-width="1" stroke-dasharray="3 2"`, "b-call"
	if recursive {
		class, stroke, marker = "pl-rec", `stroke="#c0392b" stroke-width="1.5"`, "b-arrow"
	}
	c.printf(`<g class="%s"><title>%s</title><path d="M%.2f %.2fC%.2f %.2f %.2f %.2f %.2f %.2f" fill="none" %s marker-end="url(#%s)"/></g>`+"\n",
		class, esc(tip), x0, y0, bow, y0+blueprintGapY, bow, y1-blueprintGapY, x1, y1, stroke, marker)
}

// tip is a box's tooltip: the usual lines (name, totals, handle,
// commands), with the call count and its source, the callers when there
// are several, the first call, and the patterns about the box.
func (c *blueprintPainter) tip(i int32) string {
	t := tip(c.p, i, c.o)
	bx := c.bp.boxOf(&c.p.Items[i])
	if bx < 0 {
		return t
	}
	b := c.bp.Boxes
	name, rest, _ := strings.Cut(t, "\n")
	extra := countOf(b.Counts, b.Boxes[bx].Calls)
	if f := b.Boxes[bx].First; f >= 0 {
		extra += " · first at " + analysis.FormatValue(f, "nanoseconds")
	}
	if callers := callersOf(b, bx); len(callers) > 1 {
		extra += "\ncalled from " + strings.Join(callers, ", ")
	}
	for _, p := range c.bp.Patterns {
		if p.Box == bx {
			extra += "\npattern " + p.Letter + ": " + blueprint.PatternNames[p.Letter] + c.related(p)
		}
	}
	return name + "\n" + extra + "\n" + rest
}

// callersOf lists the boxes that call box bx, with their calls where
// counted: "main 1, fib 1,972".
func callersOf(b *blueprint.Blueprint, bx int32) []string {
	var out []string
	for _, e := range b.Edges {
		if e.To != bx {
			continue
		}
		s := b.Boxes[e.From].Name
		if b.Counts != "" {
			s += " " + countText(e.Calls)
		}
		out = append(out, s)
	}
	return out
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
func blueprintFor(o *Options, v *compaction.View) source {
	return newBlueprintSource(o.Blueprint, v, o.Roots)
}
