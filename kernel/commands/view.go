package commands

import (
	"cmp"
	"errors"
	"fmt"
	"html"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

var (
	targetArg = kernel.Arg{Name: "TARGET", Kind: kernel.KindTarget, Complete: completeTarget, Optional: true,
		Doc: `a compacted node: its handle (from view), a path of displayed names from a root ("lib1 > lib2"), ` +
			`its displayed name or a unique end of it ("prepare" for "wrappers.js prepare:4:35"), or all; or give re=`}
	// reOpt finds a TARGET by a regular expression instead.
	reOpt = kernel.Option{Name: "re", Kind: kernel.KindRegexp,
		Doc: "instead of TARGET: the compacted node whose displayed name this regular expression matches (one name must match)"}
	maxOpt = kernel.Option{Name: "max", Doc: "most compacted nodes printed; 0 for all", Default: "500", Kind: kernel.KindNumber}
	// stepMaxOpt is max for the commands that change the view: they answer
	// with its top part, and view shows the rest.
	stepMaxOpt = kernel.Option{Name: "max", Doc: "most compacted nodes printed (view shows more); 0 for all", Default: "40", Kind: kernel.KindNumber}
)

// showNew shows the view of l after the command changed l's state, tree
// or mapping; note gives the header's note for the view. When an
// interrupt stops the compaction, the error fails the command, and the
// engine puts l back as it was.
func showNew(c *kernel.Call, l *kernel.Loaded, note func(v *compaction.View) string) error {
	v, err := l.CompactedView(c.Ctx)
	if err != nil {
		return err
	}
	return showView(c, v, note(v))
}

// showView displays v: a header line (the note, then the counts), the text
// tree, the same in HTML, and the export JSON, each written only as far as
// the cell's budget goes. It reads the call's max=.
func showView(c *kernel.Call, v *compaction.View, note string) error {
	max, err := c.Int("max")
	if err != nil || max < 0 {
		return c.Usagef("max=%s: write a number of nodes, 0 for all", c.Opt("max"))
	}
	head := fmt.Sprintf("%s: %s (%s)\n", c.Subject(), v.Counts(), v.Unit().Type)
	if note != "" {
		head = note + "\n" + head
	}
	lines := strings.Count(head, "\n") + v.Shown(max)
	if v.Shown(max) < v.After {
		lines++ // … N more compacted nodes not shown
	}
	text := func(w io.Writer) error {
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		return v.WriteText(w, max)
	}
	name := c.Profile().Name
	return c.Display(jupyter.Bundle{
		"text/plain": &kernel.Lazy{Write: text, Len: lines, Unit: "lines"},
		"text/html": &kernel.Lazy{Write: func(w io.Writer) error {
			return pre(w, text)
		}, Len: lines, Unit: "lines"},
		"application/json": &kernel.Lazy{Write: func(w io.Writer) error {
			return v.WriteJSON(w, name, "")
		}, Len: v.After, Unit: "compacted nodes"},
	})
}

// pre writes the text that text writes as an HTML <pre> element.
func pre(w io.Writer, text func(io.Writer) error) error {
	if _, err := io.WriteString(w, "<pre>"); err != nil {
		return err
	}
	if err := text(escaper{w}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "</pre>")
	return err
}

// escaper writes what it is given escaped for HTML (html.EscapeString).
type escaper struct{ w io.Writer }

func (e escaper) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, html.EscapeString(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// completeTarget proposes targets starting with prefix: all, the roots'
// names, and handles, at most 100.
func completeTarget(c *kernel.Call, prefix string) []string {
	v, err := c.Profile().CompactedView(c.Ctx)
	if err != nil {
		return nil
	}
	out := []string{"all"}
	for _, r := range v.Roots {
		out = append(out, v.Nodes[r].Name)
	}
	for _, i := range v.Preorder() {
		if len(out) >= 100 {
			break
		}
		if h := v.Handle(i); strings.HasPrefix(h, prefix) {
			out = append(out, h)
		}
	}
	return out
}

// findTarget finds what a TARGET names in v (compaction's rules: all, a
// handle, a path, a displayed name, the end of one): target, or the
// call's re= option, or a target written re=REGEX (flame's root=). Errors
// are usage errors that say what matched.
func findTarget(c *kernel.Call, v *compaction.View, target string) (compaction.Found, error) {
	f, err := find(c, v, target)
	return f, findTargetError(c, "", err)
}

// findOne is findTarget for a command that needs one compacted node (or
// all: -1); label starts its error messages ("root=X: ").
func findOne(c *kernel.Call, v *compaction.View, target, label string) (int32, error) {
	f, err := find(c, v, target)
	if err != nil {
		return 0, findTargetError(c, label, err)
	}
	i, err := v.One(cmp.Or(target, "re="+reOf(c)), f)
	return i, findTargetError(c, label, err)
}

// find is findTarget with compaction's errors as they are.
func find(c *kernel.Call, v *compaction.View, target string) (compaction.Found, error) {
	var re *regexp.Regexp
	if expr := reOf(c); expr != "" {
		var err error
		if re, err = regexp.Compile(expr); err != nil {
			return compaction.Found{}, c.Usagef("re=%s is not a regular expression: %v", expr, err)
		}
		if target != "" {
			return compaction.Found{}, c.Usagef("give TARGET or re=, not both")
		}
	}
	if expr, ok := strings.CutPrefix(target, "re="); ok {
		var err error
		if re, err = regexp.Compile(expr); err != nil {
			return compaction.Found{}, c.Usagef("%s is not a regular expression: %v", target, err)
		}
	}
	if re != nil {
		return v.FindRe(re)
	}
	return v.Find(target)
}

// reOf returns the call's re= option, "" when it has none (or its
// command takes none).
func reOf(c *kernel.Call) string {
	if !slices.ContainsFunc(c.Cmd.Options, func(o kernel.Option) bool { return o.Name == reOpt.Name }) {
		return ""
	}
	return c.Opt(reOpt.Name)
}

// findTargetError makes an error of compaction's finding a usage error of
// c, its message started by label.
func findTargetError(c *kernel.Call, label string, err error) error {
	var je *jupyter.Error
	if err == nil || errors.As(err, &je) {
		return err
	}
	return c.Usagef("%s%v", label, err)
}
