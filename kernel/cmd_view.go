package kernel

import (
	"fmt"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel/jupyter"
)

// CompactedView returns l's compacted tree under its granularity state and
// value type, computing it only when the state or value changed since the
// last call. A profile nobody has set levels on starts fully compacted
// (level 1 everywhere), as ProfVis does.
func CompactedView(l *Loaded) *compaction.View {
	if l.State == nil {
		l.State = compaction.NewState(l.Tree, 1)
	}
	if v := l.View; v != nil && v.State() == l.State && v.Value == l.Value && v.Tree == l.Tree {
		return v
	}
	l.View = compaction.Compact(l.Tree, l.State, l.Value)
	return l.View
}

var (
	targetArg = Arg{Name: "TARGET", Kind: KindTarget, Complete: completeTarget,
		Doc: `a compacted node: its handle (from view), a path of displayed names from a root ("lib1 > lib2"), or all`}
	maxOpt = Option{Name: "max", Doc: "most compacted nodes printed; 0 for all", Default: "500", Kind: KindNumber}
	// stepMaxOpt is max for the commands that change the view: they answer
	// with its top part, and view shows the rest.
	stepMaxOpt = Option{Name: "max", Doc: "most compacted nodes printed (view shows more); 0 for all", Default: "40", Kind: KindNumber}
)

func init() {
	Register(&Command{
		Name:    "level",
		Summary: "Set the granularity level: how many name elements each frame keeps (ProfVis).",
		Usage:   "level [NAME] N [where=RE] [max=N]",
		Doc: "Sets the level of every call-tree node whose full name matches `where` (every node without it), " +
			"then shows the compacted tree. Level 1 keeps the top unit (package, module, file); a level beyond " +
			"a name's length keeps the full name. Any assignment is allowed; when the result breaks ProfVis's " +
			"R1 (a child coarser than its parent) or R2 (a node absorbing a name two levels finer), a note says " +
			"where.",
		Args:       []Arg{{Name: "N", Doc: "level, 1 or more", Kind: KindNumber}},
		Options:    []Option{{Name: "where", Doc: "regular expression over full frame names"}, stepMaxOpt},
		Examples:   []string{"load demo:profvis-toy as toy", "level 99", "level toy 1 where=^lib2\\."},
		ProfileArg: true,
		Run:        runLevel,
	})
	for _, s := range []struct {
		name, summary string
		delta         int
		examples      []string
	}{
		{"expand", "Raise by one the level of every member of a compacted node (ProfVis's local expansion).", +1,
			[]string{"load demo:profvis-toy as toy", "level 1", `expand "lib1 > lib2"`}},
		{"compact", "Lower by one the level of every member of a compacted node (ProfVis's local compaction).", -1,
			[]string{"load demo:profvis-toy as toy", "level 99", `compact "lib1.Whale.breath > lib1.Mammal.inhale"`}},
	} {
		delta := s.delta
		Register(&Command{
			Name:    s.name,
			Summary: s.summary,
			Usage:   s.name + " [NAME] TARGET [max=N]",
			Doc: "TARGET `all` moves every call-tree node by one. A step whose result would break R1 (a child " +
				"coarser than its parent) or R2 (a node absorbing a name two levels finer) is refused with a " +
				"message saying what to do first, and the view stays as it was.",
			Args:       []Arg{targetArg},
			Options:    []Option{stepMaxOpt},
			Examples:   s.examples,
			ProfileArg: true,
			Run:        func(c *Call) error { return runStep(c, delta) },
		})
	}
	Register(&Command{
		Name:    "view",
		Summary: "The compacted tree as indented text, with handles and node counts.",
		Usage:   "view [NAME] [max=N]",
		Doc: "One line per compacted node, `name [total]  (handle)`, children by descending total; a handle " +
			"or a path of names is a TARGET for expand and compact. The first line counts call-tree nodes " +
			"before and compacted nodes after.",
		Options:    []Option{maxOpt},
		Examples:   []string{"load demo:profvis-toy as toy", "view", "view toy max=10"},
		ProfileArg: true,
		Run: func(c *Call) error {
			l, err := c.Loaded()
			if err != nil {
				return err
			}
			return showView(c, l, CompactedView(l), "")
		},
	})
	RegisterExport(".json", func(c *Call, l *Loaded, path string) error {
		return writeFile(path, func(w io.Writer) error { return CompactedView(l).WriteJSON(w, l.Name) })
	})
}

func runLevel(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Arg(0))
	if err != nil || n < 1 {
		return c.Usagef("level %q: write a whole number of name elements, 1 or more (99 for full names)", c.Arg(0))
	}
	var re *regexp.Regexp
	if c.Has("where") {
		if re, err = regexp.Compile(c.Opt("where")); err != nil {
			return c.Usagef("where=%s: %v", c.Opt("where"), err)
		}
	}
	s := l.State
	if s == nil {
		s = compaction.NewState(l.Tree, 1)
	}
	ns, count, err := s.SetLevel(l.Tree, n, re)
	if err != nil {
		return c.Usagef("%v", err)
	}
	l.State = ns
	v := CompactedView(l)
	note := fmt.Sprintf("level %d on %d of %d call-tree nodes", n, count, l.Tree.Len())
	if x := v.Check(); x != nil {
		note += fmt.Sprintf("\nnote: this view breaks %s: %s", x.Rule, x.Describe(v))
	}
	return showView(c, l, v, note)
}

func runStep(c *Call, delta int) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	v := CompactedView(l)
	target, err := v.Resolve(c.Arg(0))
	if err != nil {
		return c.Usagef("%v", err)
	}
	ns, nv, err := compaction.Step(v, target, delta)
	if err != nil {
		return &jupyter.Error{Name: "Refused", Value: err.Error()}
	}
	l.State, l.View = ns, nv
	return showView(c, l, nv, "")
}

// showView displays v: a header line (the note, then the counts), the text
// tree, the same in HTML, and the export JSON.
func showView(c *Call, l *Loaded, v *compaction.View, note string) error {
	max, err := c.Int("max")
	if err != nil || max < 0 {
		return c.Usagef("max=%s: write a number of nodes, 0 for all", c.Opt("max"))
	}
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n")
	}
	fmt.Fprintf(&b, "%s: %s (%s)\n", l.Name, v.Counts(), v.Unit().Type)
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
func completeTarget(c *Call, prefix string) []string {
	l, err := c.Loaded()
	if err != nil {
		return nil
	}
	v := CompactedView(l)
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
