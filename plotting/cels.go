package plotting

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
)

// CelsPicture is a recording's cels drawn (AVID's cel mode): one entity
// graph per cel, with the calls made up to the cel's end on its arcs (and
// "+N" for those made in the cel, in colour) and the call stack at its end
// as a grey hyperarc.
type CelsPicture struct {
	Cels   [][]byte // one SVG per cel
	Sheet  []byte   // every cel in one SVG, as small multiples
	Player []byte   // HTML: the small multiples inline, which a script turns into a player (CelsPlayer)
	Text   string   // one line per cel
}

// celColumns is the number of cels side by side in the sheet.
const celColumns = 2

// DrawCels draws the cels of cs, its entities placed as in DrawEntities(e)
// (e and cs come from one tree and mapping). The same input gives the same
// bytes.
func DrawCels(cs *avid.Cels, e *avid.Entities, profile string) (*CelsPicture, error) {
	pic := &CelsPicture{}
	var most int64
	if len(cs.Arcs) > 0 {
		most = cs.Arcs[0].Calls
	}
	var text strings.Builder
	fmt.Fprintf(&text, "%s · %d cels · calls from %s\n", celsName(profile), len(cs.Cels), sourceName(cs.Source))
	for k := range cs.Cels {
		g := celGraph(cs, e, k, most)
		var b bytes.Buffer
		if err := g.paint(&b); err != nil {
			return nil, err
		}
		pic.Cels = append(pic.Cels, b.Bytes())
		text.WriteString(celLine(cs, k) + "\n")
	}
	pic.Text = text.String()
	pic.Sheet = sheet(pic.Cels)
	pic.Player = CelsPlayer(pic.Cels, Inline)
	return pic, nil
}

func celsName(profile string) string {
	if profile == "" {
		return "cels"
	}
	return profile + " · cels"
}

// celGraph is cel k as an entity graph.
func celGraph(cs *avid.Cels, e *avid.Entities, k int, most int64) *graph {
	c := &cs.Cels[k]
	g := newGraph(e, celScale)
	g.title = fmt.Sprintf("cel %d/%d · %s–%s · %d entries", k+1, len(cs.Cels),
		analysis.FormatValue(c.Start, cs.Unit), analysis.FormatValue(c.End, cs.Unit), c.Entries)
	for i, a := range cs.Arcs {
		if c.Total[i] == 0 {
			continue
		}
		label := fmt.Sprint(c.Total[i])
		if c.Step[i] > 0 {
			label += fmt.Sprintf(" (+%d)", c.Step[i])
		}
		a.Calls = c.Total[i]
		g.arcs = append(g.arcs, g.arc(a, label, most, c.Step[i] > 0))
	}
	g.stack = c.Stack
	g.upTo(cs, c)
	return g
}

// upTo gives each box of a cel's graph the entity's share of the value and
// its bars up to the cel's end, the bars on the whole recording's scale so
// that they grow from cel to cel.
func (g *graph) upTo(cs *avid.Cels, c *avid.Cel) {
	var grand int64
	for _, v := range c.Self {
		grand += v
	}
	for i := range g.boxes {
		b := &g.boxes[i]
		if b.side == 0 {
			continue
		}
		b.share = analysis.Percent(c.Self[i], grand)
		b.tip = fmt.Sprintf("%s\nup to the cel's end: self %s (%s)", b.name, Amount(c.Self[i], cs.ValueType), b.share)
		if o := c.Objects; o != nil {
			b.alloc, b.free = frac(o.Alloc[i], g.objMost), frac(o.Free[i], g.objMost)
			b.tip += objectsTip(o, int32(i))
		}
	}
}

// celLine is cel k as text: its span, entries, stack and arcs.
func celLine(cs *avid.Cels, k int) string {
	c := &cs.Cels[k]
	names := cs.Map.Names
	var stack, arcs []string
	for _, e := range c.Stack {
		stack = append(stack, names[e])
	}
	for i, a := range cs.Arcs {
		if c.Total[i] > 0 {
			s := fmt.Sprintf("%s→%s %d", names[a.From], names[a.To], c.Total[i])
			if c.Step[i] > 0 {
				s += fmt.Sprintf(" (+%d)", c.Step[i])
			}
			arcs = append(arcs, s)
		}
	}
	return fmt.Sprintf("cel %d %s–%s: %d entries · stack %s · %s", k+1, analysis.FormatValue(c.Start, cs.Unit),
		analysis.FormatValue(c.End, cs.Unit), c.Entries, orNone(strings.Join(stack, " > ")), orNone(strings.Join(arcs, ", ")))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// sheet puts the cels' SVGs in one SVG, celColumns to a row, each in a
// group that names its cel (data-pl-part, from 1) for a view's clicks.
func sheet(cels [][]byte) []byte {
	w, h := graphWidth*celScale, graphHeight*celScale
	rows := (len(cels) + celColumns - 1) / celColumns
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n",
		w*celColumns, h*float64(rows), w*celColumns, h*float64(rows))
	for k, c := range cels {
		fmt.Fprintf(&b, `<g transform="translate(%.0f,%.0f)" data-pl-part="%d">`, w*float64(k%celColumns), h*float64(k/celColumns), k+1)
		b.Write(bytes.TrimSuffix(c, []byte("\n")))
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
