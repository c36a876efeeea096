package kernel

import (
	"fmt"
	"html"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

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
	for _, o := range c.Options {
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

// helpMarkdown documents one command in markdown.
func helpMarkdown(c *Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n\n```\n%s\n```\n", c.Name, c.Summary, usageLine(c))
	if c.Doc != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(c.Doc))
	}
	if len(c.Args) > 0 || c.Profiles == 1 {
		b.WriteString("\nArguments:\n\n")
		if c.Profiles == 1 {
			b.WriteString("- `NAME`: a loaded profile (default: the current one)\n")
		}
		for _, a := range c.Args {
			fmt.Fprintf(&b, "- `%s`: %s\n", a.Name, a.Doc)
		}
	}
	if len(c.Options) > 0 {
		b.WriteString("\nOptions:\n\n")
		for _, o := range c.Options {
			fmt.Fprintf(&b, "- `%s=`: %s%s\n", o.Name, o.Doc, optionNote(o))
		}
	}
	if len(c.Examples) > 0 {
		fmt.Fprintf(&b, "\nExamples:\n\n```\n%s\n```\n", strings.Join(c.Examples, "\n"))
	}
	return b.String()
}

// helpPlain documents one command as plain text.
func helpPlain(c *Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n\nusage: %s\n", c.Name, c.Summary, usageLine(c))
	if c.Doc != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(c.Doc))
	}
	if len(c.Args) > 0 || c.Profiles == 1 {
		b.WriteString("\narguments:\n")
		if c.Profiles == 1 {
			b.WriteString("  NAME  a loaded profile (default: the current one)\n")
		}
		for _, a := range c.Args {
			fmt.Fprintf(&b, "  %s  %s\n", a.Name, a.Doc)
		}
	}
	if len(c.Options) > 0 {
		b.WriteString("\noptions:\n")
		for _, o := range c.Options {
			fmt.Fprintf(&b, "  %s=  %s%s\n", o.Name, o.Doc, optionNote(o))
		}
	}
	if len(c.Examples) > 0 {
		b.WriteString("\nexamples:\n")
		for _, e := range c.Examples {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	return b.String()
}

// helpHTML documents one command in HTML.
func helpHTML(c *Command) string {
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>%s</b> — %s</p>\n<pre>%s</pre>\n", e(c.Name), e(c.Summary), e(usageLine(c)))
	for _, para := range strings.Split(strings.TrimSpace(c.Doc), "\n\n") {
		if para != "" {
			fmt.Fprintf(&b, "<p>%s</p>\n", e(para))
		}
	}
	if len(c.Args) > 0 || c.Profiles == 1 {
		b.WriteString("<p>Arguments:</p>\n<ul>\n")
		if c.Profiles == 1 {
			b.WriteString("<li><code>NAME</code>: a loaded profile (default: the current one)</li>\n")
		}
		for _, a := range c.Args {
			fmt.Fprintf(&b, "<li><code>%s</code>: %s</li>\n", e(a.Name), e(a.Doc))
		}
		b.WriteString("</ul>\n")
	}
	if len(c.Options) > 0 {
		b.WriteString("<p>Options:</p>\n<ul>\n")
		for _, o := range c.Options {
			fmt.Fprintf(&b, "<li><code>%s=</code>: %s%s</li>\n", e(o.Name), e(o.Doc), e(optionNote(o)))
		}
		b.WriteString("</ul>\n")
	}
	if len(c.Examples) > 0 {
		fmt.Fprintf(&b, "<p>Examples:</p>\n<pre>%s</pre>\n", e(strings.Join(c.Examples, "\n")))
	}
	return b.String()
}

// HelpBundle documents one command as text/plain, text/markdown and text/html.
func HelpBundle(c *Command) jupyter.Bundle {
	return jupyter.Bundle{"text/plain": helpPlain(c), "text/markdown": helpMarkdown(c), "text/html": helpHTML(c)}
}

// IndexBundle lists every command with its summary.
func IndexBundle() jupyter.Bundle {
	cmds := Commands()
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.Name))
	}
	var plain, md, h strings.Builder
	plain.WriteString("commands:\n")
	md.WriteString("| command | what it does |\n|---|---|\n")
	h.WriteString("<table>\n<thead><tr><th>command</th><th>what it does</th></tr></thead>\n<tbody>\n")
	for _, c := range cmds {
		fmt.Fprintf(&plain, "  %-*s  %s\n", width, c.Name, c.Summary)
		fmt.Fprintf(&md, "| `%s` | %s |\n", c.Name, strings.ReplaceAll(c.Summary, "|", `\|`))
		fmt.Fprintf(&h, "<tr><td><code>%s</code></td><td>%s</td></tr>\n", html.EscapeString(c.Name), html.EscapeString(c.Summary))
	}
	const tail = "help CMD or CMD? shows one command."
	plain.WriteString("\n" + tail + "\n")
	md.WriteString("\n`help CMD` or `CMD?` shows one command.\n")
	h.WriteString("</tbody>\n</table>\n<p>" + tail + "</p>\n")
	return jupyter.Bundle{"text/plain": plain.String(), "text/markdown": md.String(), "text/html": h.String()}
}

// pager returns the execute_reply payload that shows a command's doc in the
// front end's pager, like IPython's `?`.
func pager(c *Command) map[string]any {
	return map[string]any{
		"source": "page",
		"data":   map[string]any{"text/plain": helpPlain(c), "text/markdown": helpMarkdown(c)},
		"start":  0,
	}
}
