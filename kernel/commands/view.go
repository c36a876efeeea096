package commands

import (
	"fmt"
	"html"
	"strings"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
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
// tree, the same in HTML, and the export JSON. It reads the call's max=.
func showView(c *kernel.Call, v *compaction.View, note string) error {
	max, err := c.Int("max")
	if err != nil || max < 0 {
		return c.Usagef("max=%s: write a number of nodes, 0 for all", c.Opt("max"))
	}
	l := c.Profile()
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n")
	}
	fmt.Fprintf(&b, "%s: %s (%s)\n", c.Subject(), v.Counts(), v.Unit().Type)
	if err := v.WriteText(&b, max); err != nil {
		return err
	}
	text := b.String()
	c.Out.Display(map[string]any{
		"text/plain":       text,
		"text/html":        "<pre>" + html.EscapeString(text) + "</pre>",
		"application/json": v.Doc(l.Name),
	}, nil)
	return nil
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
