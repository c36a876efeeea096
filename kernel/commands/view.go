package commands

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

var (
	targetArg = kernel.Arg{Name: "TARGET", Kind: kernel.KindTarget, Complete: completeTarget,
		Doc: `a compacted node: its handle (from view), a path of displayed names from a root ("lib1 > lib2"), or all`}
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

// resolveTarget is v.Resolve that also takes a path of names as the views
// show them, without the profile's common directory (analysis.Names.Short).
func resolveTarget(v *compaction.View, target string) (int32, error) {
	i, err := v.Resolve(target)
	if err == nil || v.Tree == nil || v.Tree.Names.Common == "" {
		return i, err
	}
	common, names := v.Tree.Names.Common, map[string]bool{}
	for _, nd := range v.Nodes {
		if nd != nil {
			names[nd.Name] = true
		}
	}
	parts := strings.Split(target, " > ")
	for k, p := range parts {
		if !names[p] && names[common+p] {
			parts[k] = common + p
		}
	}
	if j, err2 := v.Resolve(strings.Join(parts, " > ")); err2 == nil {
		return j, nil
	}
	return i, err
}
