package plotting

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/proflens/proflens/phase"
)

// SimilarityChart draws SimPoint's similarity matrix of JIVE's window
// vectors as a grey heatmap (darker is more similar) with the detected
// phases as coloured bands along both axes. Axes count intervals.
func SimilarityChart(s *phase.Similarity, r *phase.Result, title string) ([]byte, error) {
	n := s.Side()
	if n == 0 {
		return nil, fmt.Errorf("similarity: no intervals")
	}
	p := plot.New()
	p.Title.Text = title
	if s.Averaged() {
		p.Title.Text += fmt.Sprintf("\n%d intervals averaged into %d×%d cells", s.N, n, n)
	}
	p.X.Label.Text, p.Y.Label.Text = "interval", "interval"
	h := plotter.NewHeatMap(simGrid{s}, greys(64))
	h.Min, h.Max, h.Rasterized = 0, 1, true
	p.Add(h)
	edges := make([]float64, n+1)
	for b := range edges {
		edges[b] = float64(s.Bins[b])
	}
	colors := make([]string, n)
	for b, id := range s.BinPhases(r.Of) {
		colors[b] = phaseColor(r, int(id))
	}
	gap := float64(s.N) * 0.05
	p.Add(bandPlotter{bands: Bands(colors, edges), lo: -gap, hi: -gap / 4, vertical: false},
		bandPlotter{bands: Bands(colors, edges), lo: -gap, hi: -gap / 4, vertical: true})
	p.X.Min, p.Y.Min = -gap, -gap
	p.X.Max, p.Y.Max = float64(s.N), float64(s.N)
	return svgBytes(p, legendOf(r), 6*vg.Inch, 6.4*vg.Inch)
}

// TimelineChart draws the phases over time as coloured bands, with the
// sample rate (samples per second of each interval; per profile for a
// series) as a line.
func TimelineChart(v *phase.Vectors, r *phase.Result, title string) ([]byte, error) {
	n := v.Len()
	if n == 0 {
		return nil, fmt.Errorf("timeline: no intervals")
	}
	p := plot.New()
	p.Title.Text = title
	scale, unit := 1e-9, "time (s)"
	if v.Series {
		scale, unit = 1, "profile of the series"
	}
	p.X.Label.Text = unit
	p.Y.Label.Text = "samples/s"
	if v.Series {
		p.Y.Label.Text = "samples"
	}
	edges := make([]float64, n+1)
	colors := make([]string, n)
	rate := make(plotter.XYs, n)
	ymax := 1.0
	for i, iv := range v.Intervals {
		edges[i], edges[i+1] = float64(iv.Start)*scale, float64(iv.End)*scale
		colors[i] = phaseColor(r, int(r.Of[i]))
		y := float64(v.Samples[i])
		if !v.Series {
			y /= float64(iv.End-iv.Start) * 1e-9
		}
		rate[i] = plotter.XY{X: (edges[i] + edges[i+1]) / 2, Y: y}
		ymax = max(ymax, y)
	}
	p.Add(bandPlotter{bands: Bands(colors, edges), lo: 0, hi: ymax * 1.05, vertical: false})
	line, err := plotter.NewLine(rate)
	if err != nil {
		return nil, fmt.Errorf("timeline: %w", err)
	}
	line.Width = vg.Points(1.2)
	p.Add(line)
	p.Y.Min, p.Y.Max = 0, ymax*1.05
	p.X.Min, p.X.Max = edges[0], edges[n]
	l := &chartLegend{}
	l.add("sample rate", line) // first, so that a summary of many phases never hides it
	l.names, l.thumbs = append(l.names, legendOf(r).names...), append(l.thumbs, legendOf(r).thumbs...)
	return svgBytes(p, l, 8*vg.Inch, 3.2*vg.Inch)
}

func phaseColor(r *phase.Result, id int) string {
	if ph := r.Phase(id); ph != nil {
		return ph.Color
	}
	return phase.EmptyColor
}

// legendChars is the longest legend entry; longer labels are cut.
const legendChars = 22

// legendOf lists the phases that occur, by id.
func legendOf(r *phase.Result) *chartLegend {
	l := &chartLegend{}
	for _, ph := range r.Phases {
		if ph.Intervals == 0 {
			continue
		}
		name := fmt.Sprintf("%d", ph.ID)
		if ph.ID == phase.Empty {
			name = "0 (empty)"
		}
		if ph.Label != "" {
			name += " " + ph.Label
		}
		if r := []rune(name); len(r) > legendChars {
			name = string(r[:legendChars-1]) + "…"
		}
		l.add(name, swatch{hexColor(ph.Color)})
	}
	return l
}

// bandPlotter fills each band across [lo, hi] of the other axis: along x
// (vertical false) or along y (vertical true).
type bandPlotter struct {
	bands    []Band
	lo, hi   float64
	vertical bool
}

// Plot implements plot.Plotter.
func (b bandPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	for _, band := range b.bands {
		col := hexColor(band.Color)
		if b.vertical {
			rect(c, p, b.lo, b.hi, band.From, band.To, col)
		} else {
			rect(c, p, band.From, band.To, b.lo, b.hi, col)
		}
	}
}

// simGrid adapts a similarity matrix to plotter.GridXYZ; cells are placed
// at their bins' centres in interval units.
type simGrid struct{ s *phase.Similarity }

func (g simGrid) Dims() (int, int)          { return g.s.Side(), g.s.Side() }
func (g simGrid) Z(c, r int) float64        { return g.s.At(r, c) }
func (g simGrid) X(c int) float64           { return float64(g.s.Bins[c]+g.s.Bins[c+1]) / 2 }
func (g simGrid) Y(r int) float64           { return float64(g.s.Bins[r]+g.s.Bins[r+1]) / 2 }
func (g simGrid) String() string            { return "similarity" }
func (greyPalette) String() string          { return "greys" }
func (p greyPalette) Colors() []color.Color { return p }

// greyPalette runs from white (0: unrelated) to black (1: identical).
type greyPalette []color.Color

func greys(n int) greyPalette {
	out := make(greyPalette, n)
	for i := range out {
		v := uint8(255 - 255*i/(n-1))
		out[i] = color.Gray{v}
	}
	return out
}
