package kernel

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel/jupyter"
)

// Table is a table a command shows: rendered as text/plain (aligned
// columns), text/html and application/json (rows as objects keyed by
// column).
type Table struct {
	Title   string   // optional caption
	Columns []string // column names, also the JSON keys
	// Rows hold cells: string, int, int32, int64, uint64, float64 (shown
	// with Precision decimals), bool, or Cell for display text that differs
	// from the JSON value.
	Rows      [][]any
	Precision int    // decimals for float64 cells; 0 means 2
	Note      string // optional line after the table
}

// Cell is a table cell whose display Text differs from its JSON Value
// (e.g. Text "12.5%", Value 0.125).
type Cell struct {
	Text  string
	Value any
	HTML  string // optional markup shown in text/html instead of the escaped Text
}

// Bundle renders the table as a MIME bundle.
func (t *Table) Bundle() jupyter.Bundle {
	return jupyter.Bundle{
		"text/plain":       t.Plain(),
		"text/html":        t.HTML(),
		"application/json": t.JSON(),
	}
}

func (t *Table) text(cell any) string {
	prec := t.Precision
	if prec == 0 {
		prec = 2
	}
	switch v := cell.(type) {
	case Cell:
		return v.Text
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', prec, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', prec, 32)
	case nil:
		return ""
	}
	return fmt.Sprint(cell)
}

func numeric(cell any) bool {
	switch v := cell.(type) {
	case int, int32, int64, uint64, float32, float64:
		return true
	case Cell:
		return numeric(v.Value)
	}
	return false
}

// rightAligned says, per column, whether every cell is numeric (or empty),
// so the column aligns right in every rendering.
func (t *Table) rightAligned() []bool {
	right := make([]bool, len(t.Columns))
	for i := range right {
		right[i] = len(t.Rows) > 0
	}
	for _, r := range t.Rows {
		for i := range t.Columns {
			var cell any
			if i < len(r) {
				cell = r[i]
			}
			right[i] = right[i] && (cell == nil || numeric(cell))
		}
	}
	return right
}

// Plain renders the table as aligned text; numeric columns align right.
func (t *Table) Plain() string {
	width := make([]int, len(t.Columns))
	right := t.rightAligned()
	for i, c := range t.Columns {
		width[i] = len([]rune(c))
	}
	for _, r := range t.Rows {
		for i := range t.Columns {
			if i < len(r) {
				width[i] = max(width[i], len([]rune(t.text(r[i]))))
			}
		}
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(t.Title + "\n")
	}
	line := func(cells []string) {
		var l strings.Builder
		for i, s := range cells {
			if i > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-len([]rune(s)))
			if right[i] {
				l.WriteString(pad + s)
			} else {
				l.WriteString(s + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(t.Columns)
	for _, r := range t.Rows {
		cells := make([]string, len(t.Columns))
		for i := range cells {
			if i < len(r) {
				cells[i] = t.text(r[i])
			}
		}
		line(cells)
	}
	if t.Note != "" {
		b.WriteString(t.Note + "\n")
	}
	return b.String()
}

// HTML renders the table as an HTML table.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString("<table>\n")
	if t.Title != "" {
		fmt.Fprintf(&b, "<caption>%s</caption>\n", html.EscapeString(t.Title))
	}
	// Alignment is explicit on every cell: notebook style sheets differ
	// (the classic Notebook right-aligns everything), and indented names
	// only read as a tree when they align left.
	align := make([]string, len(t.Columns))
	for i, r := range t.rightAligned() {
		align[i] = ` style="text-align:left"`
		if r {
			align[i] = ` style="text-align:right"`
		}
	}
	b.WriteString("<thead><tr>")
	for i, c := range t.Columns {
		fmt.Fprintf(&b, "<th%s>%s</th>", align[i], html.EscapeString(c))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for i := range t.Columns {
			var cell any
			if i < len(r) {
				cell = r[i]
			}
			body := html.EscapeString(t.text(cell))
			if c, ok := cell.(Cell); ok && c.HTML != "" {
				body = c.HTML
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", align[i], body)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	if t.Note != "" {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(t.Note))
	}
	return b.String()
}

// JSON returns the rows as objects keyed by column name.
func (t *Table) JSON() []map[string]any {
	rows := make([]map[string]any, 0, len(t.Rows))
	for _, r := range t.Rows {
		obj := make(map[string]any, len(t.Columns))
		for i, c := range t.Columns {
			var cell any
			if i < len(r) {
				cell = r[i]
			}
			if v, ok := cell.(Cell); ok {
				cell = v.Value
			}
			obj[c] = cell
		}
		rows = append(rows, obj)
	}
	return rows
}

// Table shows t as display_data.
func (c *Call) Table(t *Table) { c.Out.Display(t.Bundle(), nil) }

// ValueCell shows a raw value in its unit; its JSON is the integer.
func ValueCell(x int64, unit string) Cell {
	return Cell{Text: analysis.FormatValue(x, unit), Value: x}
}

// PercentCell shows part as a percentage of whole; its JSON is the
// fraction (0 when whole is 0).
func PercentCell(part, whole int64) Cell {
	f := 0.0
	if whole != 0 {
		f = float64(part) / float64(whole)
	}
	return Cell{Text: analysis.Percent(part, whole), Value: f}
}

// CountOf says "1 thread", "3 threads".
func CountOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
