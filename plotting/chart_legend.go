package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A chart's legend is drawn right of the plot, where it cannot hide data,
// in columns of as many entries as the chart is tall enough for; past
// maxLegendColumns columns the last entry says how many more there are.
// Entries never overlap and never leave the picture.
const (
	maxLegendColumns = 3
	legendFontSize   = 10
	legendPadding    = vg.Length(2)
	legendTop        = vg.Length(24) // room for the title's line
	legendGap        = vg.Length(10) // between columns
)

// chartLegend is a chart's legend entries, in order.
type chartLegend struct {
	names  []string
	thumbs []plot.Thumbnailer
}

func (l *chartLegend) add(name string, t plot.Thumbnailer) {
	l.names = append(l.names, name)
	l.thumbs = append(l.thumbs, t)
}

// columns splits the entries into columns of at most rows, summarising the
// entries past maxLegendColumns columns in a last "+N more" entry.
func (l *chartLegend) columns(rows int) [][]int {
	rows = max(rows, 1)
	idx := make([]int, len(l.names))
	for i := range idx {
		idx[i] = i
	}
	if room := rows * maxLegendColumns; len(idx) > room {
		idx = append(idx[:room-1], -1) // -1: the summary
	}
	var cols [][]int
	for len(idx) > 0 {
		n := min(rows, len(idx))
		cols = append(cols, idx[:n])
		idx = idx[n:]
	}
	return cols
}

// legendStyle is a gonum legend in the charts' font, its entries packed.
func legendStyle() plot.Legend {
	g := plot.NewLegend()
	g.Top, g.Left = true, true
	g.Padding = legendPadding
	g.TextStyle.Font = chartFont(legendFontSize)
	return g
}

// layout returns the columns for a legend height of h and each column's
// width.
func (l *chartLegend) layout(h vg.Length) ([][]int, []vg.Length) {
	g := legendStyle()
	g.Add("Xg")
	enth := g.Rectangle(draw.Canvas{}).Size().Y
	rows := int(math.Floor(float64((h - legendTop + legendPadding) / (enth + legendPadding))))
	cols := l.columns(rows)
	hidden := len(l.names) - shown(cols)
	widths := make([]vg.Length, len(cols))
	for k, col := range cols {
		c := legendStyle()
		for _, i := range col {
			c.Add(l.name(i, hidden))
		}
		widths[k] = c.Rectangle(draw.Canvas{}).Size().X + legendGap
	}
	return cols, widths
}

// shown is how many entries the columns show (the summary excluded).
func shown(cols [][]int) int {
	n := 0
	for _, col := range cols {
		for _, i := range col {
			if i >= 0 {
				n++
			}
		}
	}
	return n
}

// name is entry i's label, or the summary of the hidden entries for -1.
func (l *chartLegend) name(i, hidden int) string {
	if i < 0 {
		return fmt.Sprintf("+%d more", hidden)
	}
	return l.names[i]
}

// draw draws the columns into c, left to right.
func (l *chartLegend) draw(c draw.Canvas, cols [][]int, widths []vg.Length) {
	hidden := len(l.names) - shown(cols)
	x := c.Min.X
	for k, col := range cols {
		g := legendStyle()
		for _, i := range col {
			if i < 0 {
				g.Add(l.name(i, hidden))
				continue
			}
			g.Add(l.name(i, hidden), l.thumbs[i])
		}
		g.Draw(draw.Crop(c, x-c.Min.X, x+widths[k]-c.Max.X, 0, -legendTop))
		x += widths[k]
	}
}
