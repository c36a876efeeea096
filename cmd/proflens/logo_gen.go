//go:build ignore

// logo_gen draws proflens's logo (an icicle of profile bars under a lens)
// and writes logo-svg.svg, logo-32x32.png and logo-64x64.png. Run it from
// cmd/proflens with `go run logo_gen.go`; the outputs are committed.
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strings"
)

type bar struct {
	x0, y0, x1, y1 float64
	fill           string
}

// Coordinates are in a 64×64 box.
var (
	bars = []bar{
		{6, 46, 58, 56, "#c2410c"},
		{6, 35, 38, 45, "#ea580c"},
		{40, 35, 58, 45, "#f59e0b"},
		{6, 24, 24, 34, "#fbbf24"},
	}
	lensX, lensY, lensR, lensW = 40.0, 20.0, 12.0, 4.0
	handle                     = [4]float64{48.5, 28.5, 58, 38}
	handleW                    = 6.0
	ink                        = "#1d4ed8"
)

func main() {
	check(os.WriteFile("logo-svg.svg", []byte(svg()), 0o644))
	for _, n := range []int{32, 64} {
		f, err := os.Create(fmt.Sprintf("logo-%dx%d.png", n, n))
		check(err)
		check(png.Encode(f, raster(n)))
		check(f.Close())
	}
}

func svg() string {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` + "\n")
	for _, r := range bars {
		fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" rx="1.5" fill="%s"/>`+"\n", r.x0, r.y0, r.x1-r.x0, r.y1-r.y0, r.fill)
	}
	fmt.Fprintf(&b, `<circle cx="%g" cy="%g" r="%g" fill="#ffffff" fill-opacity="0.35" stroke="%s" stroke-width="%g"/>`+"\n", lensX, lensY, lensR, ink, lensW)
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g" stroke-linecap="round"/>`+"\n", handle[0], handle[1], handle[2], handle[3], ink, handleW)
	b.WriteString("</svg>\n")
	return b.String()
}

// raster draws the logo at n×n pixels with 4×4 supersampling.
func raster(n int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	const ss = 4
	for py := 0; py < n; py++ {
		for px := 0; px < n; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) * 64 / float64(n)
					y := (float64(py) + (float64(sy)+0.5)/ss) * 64 / float64(n)
					c := at(x, y)
					r += float64(c.R) * float64(c.A) / 255
					g += float64(c.G) * float64(c.A) / 255
					b += float64(c.B) * float64(c.A) / 255
					a += float64(c.A)
				}
			}
			if a == 0 {
				continue
			}
			k := 255 / a
			img.SetNRGBA(px, py, color.NRGBA{uint8(r * k), uint8(g * k), uint8(b * k), uint8(a / (ss * ss))})
		}
	}
	return img
}

// at is the colour of the logo at (x, y), painting in SVG order.
func at(x, y float64) color.NRGBA {
	c := color.NRGBA{}
	for _, r := range bars {
		if x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1 {
			c = hex(r.fill, 255)
		}
	}
	d := math.Hypot(x-lensX, y-lensY)
	if d < lensR-lensW/2 {
		c = over(color.NRGBA{255, 255, 255, 89}, c)
	}
	if math.Abs(d-lensR) <= lensW/2 || segDist(x, y) <= handleW/2 {
		c = hex(ink, 255)
	}
	return c
}

func segDist(x, y float64) float64 {
	ax, ay, bx, by := handle[0], handle[1], handle[2], handle[3]
	dx, dy := bx-ax, by-ay
	t := math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/(dx*dx+dy*dy)))
	return math.Hypot(x-ax-t*dx, y-ay-t*dy)
}

func over(top, bottom color.NRGBA) color.NRGBA {
	ta, ba := float64(top.A)/255, float64(bottom.A)/255
	a := ta + ba*(1-ta)
	if a == 0 {
		return color.NRGBA{}
	}
	mix := func(t, b uint8) uint8 { return uint8((float64(t)*ta + float64(b)*ba*(1-ta)) / a) }
	return color.NRGBA{mix(top.R, bottom.R), mix(top.G, bottom.G), mix(top.B, bottom.B), uint8(a * 255)}
}

func hex(s string, a uint8) color.NRGBA {
	var r, g, b uint8
	fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.NRGBA{r, g, b, a}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
