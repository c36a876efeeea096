package plotting

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Font metrics. Labels use a monospaced font so that whether a label fits
// can be decided exactly, the same way on every machine. Liberation Mono
// is also the gonum charts' font (chartFont), so every picture has one
// family; the others in the stack have the same advance of 0.6 em.
const (
	fontSize  = 11.0
	charWidth = 0.6 * fontSize
	fontStack = "Liberation Mono,DejaVu Sans Mono,Menlo,Consolas,monospace"
	foldFill  = "#d9d9d9"
)

// style outlines a node's shape on hover, and outlines and fades in the
// nodes that are new since the previous picture. Labels ignore the pointer,
// so the tooltip is the node's.
const style = ".proflens .pl-n:hover>path,.proflens .pl-n:hover>rect,.proflens .pl-n:hover>circle{stroke:#000;stroke-width:1.5}" +
	".proflens text{pointer-events:none}" +
	".proflens .pl-new>path,.proflens .pl-new>rect,.proflens .pl-new>circle{stroke:#000;stroke-width:1.5;animation:pl-in 1.5s ease-out}" +
	"@keyframes pl-in{from{opacity:0}}"

// svgWriter writes SVG with fixed float precision; the first write error
// is kept and reported by close.
type svgWriter struct {
	w   *bufio.Writer
	err error
}

func newSVG(w io.Writer, width, height float64) *svgWriter {
	s := &svgWriter{w: bufio.NewWriter(w)}
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="proflens" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s" font-size="%.0f">`+"\n",
		width, height, width, height, fontStack, fontSize)
	s.printf("<style>%s</style>\n", style)
	// A white ground under the whole picture keeps its black text legible
	// on dark notebook themes.
	s.printf(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	return s
}

func (s *svgWriter) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// open starts a node's group with its id and tooltip.
func (s *svgWriter) open(id, tip string, fresh bool) {
	class := "pl-n"
	if fresh {
		class = "pl-n pl-new"
	}
	s.printf(`<g class="%s" id="%s"><title>%s</title>`, class, esc(id), esc(tip))
}

func (s *svgWriter) closeGroup() { s.printf("</g>\n") }

// text writes a label; rotate is in degrees about (x, y).
func (s *svgWriter) text(x, y, rotate float64, anchor, label string) {
	if rotate != 0 {
		s.printf(`<text x="%.2f" y="%.2f" text-anchor="%s" transform="rotate(%.2f %.2f %.2f)">%s</text>`,
			x, y, anchor, rotate, x, y, esc(label))
		return
	}
	s.printf(`<text x="%.2f" y="%.2f" text-anchor="%s">%s</text>`, x, y, anchor, esc(label))
}

// centred writes a label centred on (x, y), rotated by rotate degrees.
func (s *svgWriter) centred(x, y, rotate float64, label string) {
	s.printf(`<text x="%.2f" y="%.2f" dy="0.35em" text-anchor="middle"`, x, y)
	if rotate != 0 {
		s.printf(` transform="rotate(%.2f %.2f %.2f)"`, rotate, x, y)
	}
	s.printf(">%s</text>", esc(label))
}

func (s *svgWriter) close() error {
	s.printf("</svg>\n")
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func esc(s string) string { return escaper.Replace(s) }

// fit returns label shortened to at most width pixels, ending in "…" when
// cut, or "" when not even three characters fit.
func fit(label string, width float64) string {
	r := []rune(label)
	n := int(width / charWidth)
	if len(r) <= n {
		return label
	}
	if n < 4 {
		return ""
	}
	return string(r[:n-1]) + "…"
}
