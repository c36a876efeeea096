package kernel

import (
	"fmt"
	"html"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// A helpPage is documentation as a list of blocks, built from the commands
// and rendered alike into plain text, markdown and HTML: help, help CMD,
// CMD? and inspect all show one. Text in blocks is inline markdown whose
// only markup is `code`.
type helpPage []helpBlock

type blockKind uint8

const (
	blockTitle blockKind = iota // label — text
	blockUsage                  // text, the usage line
	blockPara                   // text
	blockList                   // label, then items: term (code) and text
	blockCode                   // label, then lines verbatim
	blockTable                  // label, head, then items as rows
)

type helpBlock struct {
	kind  blockKind
	label string
	text  string
	head  [2]string // a table's column names
	items []helpItem
	lines []string
}

// helpItem is a list entry or table row: a term shown as code, and text.
type helpItem struct{ term, text string }

// commandPage documents one command.
func commandPage(c *Command) helpPage {
	p := helpPage{{kind: blockTitle, label: c.Name, text: c.Summary}, {kind: blockUsage, text: usageLine(c)}}
	for _, para := range strings.Split(strings.TrimSpace(c.Doc), "\n\n") {
		if para != "" {
			p = append(p, helpBlock{kind: blockPara, text: para})
		}
	}
	if args := argItems(c); len(args) > 0 {
		p = append(p, helpBlock{kind: blockList, label: "Arguments", items: args})
	}
	if all := c.AllOptions(); len(all) > 0 {
		var opts []helpItem
		for _, o := range all {
			opts = append(opts, helpItem{o.Name + "=", o.Doc + optionNote(o)})
		}
		p = append(p, helpBlock{kind: blockList, label: "Options", items: opts})
	}
	if len(c.Examples) > 0 {
		p = append(p, helpBlock{kind: blockCode, label: "Examples", lines: c.Examples})
	}
	return p
}

// argItems documents the profile names, the arguments and as NAME.
func argItems(c *Command) []helpItem {
	var items []helpItem
	switch c.Profiles {
	case 1:
		items = append(items, helpItem{"NAME", "a loaded profile (default: the current one)"})
	case 2:
		items = append(items, helpItem{"BASE", "a loaded profile, the baseline"}, helpItem{"NEW", "a loaded profile compared with BASE"})
		if c.Within != "" {
			items = append(items, helpItem{"NAME", "with " + c.Within + "=, instead of BASE NEW: one loaded profile compared with itself (default: the current one)"})
		}
	}
	for _, a := range c.Args {
		items = append(items, helpItem{a.Name, a.Doc})
	}
	if c.AllowAs {
		items = append(items, helpItem{"as NAME", "names the result; it may stand anywhere among the options"})
	}
	return items
}

// indexPage lists every command with its summary.
func indexPage(t *CommandTable) helpPage {
	var rows []helpItem
	for _, c := range t.Commands() {
		rows = append(rows, helpItem{c.Name, c.Summary})
	}
	return helpPage{
		{kind: blockTable, label: "commands", head: [2]string{"command", "what it does"}, items: rows},
		{kind: blockPara, text: "`help CMD` or `CMD?` shows one command."},
	}
}

// usageLine returns the command's usage, generated from its profiles,
// arguments and options.
func usageLine(c *Command) string {
	parts := []string{c.Name}
	switch c.Profiles {
	case 1:
		parts = append(parts, "[NAME]")
	case 2:
		parts = append(parts, "BASE", "NEW")
	}
	for _, a := range c.Args {
		s := a.Name
		if a.Variadic {
			s += "..."
		}
		if a.Optional {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	if c.AllowAs {
		parts = append(parts, "[as NAME]")
	}
	for _, o := range c.AllOptions() {
		parts = append(parts, "["+o.Name+"="+optionPlaceholder(o)+"]")
	}
	return strings.Join(parts, " ")
}

func optionPlaceholder(o Option) string {
	if len(o.Values) > 0 {
		return strings.Join(o.Values, "|")
	}
	if o.Default != "" {
		return o.Default
	}
	if p, ok := placeholders[o.Kind]; ok {
		return p
	}
	return strings.ToUpper(o.Name)
}

// optionNote says an option's default and allowed values.
func optionNote(o Option) string {
	var notes []string
	if o.Default != "" {
		notes = append(notes, "default "+o.Default)
	}
	if len(o.Values) > 0 {
		notes = append(notes, "one of "+strings.Join(o.Values, ", "))
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// Plain renders the page as plain text; inline text stays as written.
func (p helpPage) Plain() string {
	var b strings.Builder
	for i, bl := range p {
		if i > 0 {
			b.WriteString("\n")
		}
		switch bl.kind {
		case blockTitle:
			fmt.Fprintf(&b, "%s — %s\n", bl.label, bl.text)
		case blockUsage:
			fmt.Fprintf(&b, "usage: %s\n", bl.text)
		case blockPara:
			b.WriteString(bl.text + "\n")
		case blockList, blockTable:
			fmt.Fprintf(&b, "%s:\n", strings.ToLower(bl.label))
			width := 0
			for _, it := range bl.items {
				width = max(width, len([]rune(it.term)))
			}
			for _, it := range bl.items {
				fmt.Fprintf(&b, "  %s%s  %s\n", it.term, strings.Repeat(" ", width-len([]rune(it.term))), it.text)
			}
		case blockCode:
			fmt.Fprintf(&b, "%s:\n", strings.ToLower(bl.label))
			for _, l := range bl.lines {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
	}
	return b.String()
}

// Markdown renders the page as markdown.
func (p helpPage) Markdown() string {
	var b strings.Builder
	for i, bl := range p {
		if i > 0 {
			b.WriteString("\n")
		}
		switch bl.kind {
		case blockTitle:
			fmt.Fprintf(&b, "**%s** — %s\n", bl.label, bl.text)
		case blockUsage:
			fmt.Fprintf(&b, "```\n%s\n```\n", bl.text)
		case blockPara:
			b.WriteString(bl.text + "\n")
		case blockList:
			fmt.Fprintf(&b, "%s:\n\n", bl.label)
			for _, it := range bl.items {
				fmt.Fprintf(&b, "- `%s`: %s\n", it.term, it.text)
			}
		case blockCode:
			fmt.Fprintf(&b, "%s:\n\n```\n%s\n```\n", bl.label, strings.Join(bl.lines, "\n"))
		case blockTable:
			fmt.Fprintf(&b, "| %s | %s |\n|---|---|\n", bl.head[0], bl.head[1])
			for _, it := range bl.items {
				fmt.Fprintf(&b, "| `%s` | %s |\n", it.term, strings.ReplaceAll(it.text, "|", `\|`))
			}
		}
	}
	return b.String()
}

// left aligns a table cell: notebook style sheets differ (the classic
// Notebook right-aligns every cell).
const left = ` style="text-align:left"`

// HTML renders the page as HTML; `code` spans become <code> elements.
func (p helpPage) HTML() string {
	e := html.EscapeString
	var b strings.Builder
	for _, bl := range p {
		switch bl.kind {
		case blockTitle:
			fmt.Fprintf(&b, "<p><b>%s</b> — %s</p>\n", e(bl.label), inlineHTML(bl.text))
		case blockUsage:
			fmt.Fprintf(&b, "<pre>%s</pre>\n", e(bl.text))
		case blockPara:
			fmt.Fprintf(&b, "<p>%s</p>\n", inlineHTML(bl.text))
		case blockList:
			fmt.Fprintf(&b, "<p>%s:</p>\n<ul>\n", e(bl.label))
			for _, it := range bl.items {
				fmt.Fprintf(&b, "<li><code>%s</code>: %s</li>\n", e(it.term), inlineHTML(it.text))
			}
			b.WriteString("</ul>\n")
		case blockCode:
			fmt.Fprintf(&b, "<p>%s:</p>\n<pre>%s</pre>\n", e(bl.label), e(strings.Join(bl.lines, "\n")))
		case blockTable:
			fmt.Fprintf(&b, "<table>\n<thead><tr><th%s>%s</th><th%s>%s</th></tr></thead>\n<tbody>\n", left, e(bl.head[0]), left, e(bl.head[1]))
			for _, it := range bl.items {
				fmt.Fprintf(&b, "<tr><td%s><code>%s</code></td><td%s>%s</td></tr>\n", left, e(it.term), left, inlineHTML(it.text))
			}
			b.WriteString("</tbody>\n</table>\n")
		}
	}
	return b.String()
}

// inlineHTML escapes inline markdown and turns its `code` spans into
// <code> elements; a backtick without a partner stays as it is.
func inlineHTML(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, part := range parts {
		switch {
		case i%2 == 0:
			b.WriteString(html.EscapeString(part))
		case i == len(parts)-1: // an unpaired backtick
			b.WriteString("`" + html.EscapeString(part))
		default:
			b.WriteString("<code>" + html.EscapeString(part) + "</code>")
		}
	}
	return b.String()
}

// Bundle renders the page as text/plain, text/markdown and text/html.
func (p helpPage) Bundle() jupyter.Bundle {
	return jupyter.Bundle{"text/plain": p.Plain(), "text/markdown": p.Markdown(), "text/html": p.HTML()}
}

// HelpBundle documents one command as text/plain, text/markdown and text/html.
func HelpBundle(c *Command) jupyter.Bundle { return commandPage(c).Bundle() }

// IndexBundle lists every command with its summary.
func IndexBundle(t *CommandTable) jupyter.Bundle { return indexPage(t).Bundle() }

// pager returns the execute_reply payload that shows a command's doc in the
// front end's pager, like IPython's `?`.
func pager(c *Command) map[string]any {
	p := commandPage(c)
	return map[string]any{
		"source": "page",
		"data":   map[string]any{"text/plain": p.Plain(), "text/markdown": p.Markdown()},
		"start":  0,
	}
}
