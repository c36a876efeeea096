package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

// Element id prefixes of the pictures of a compacted tree (plotting's
// painters): a node's group is PREFIX-HANDLE.
var nodePrefix = map[string]string{plotting.LayoutRadial: "r-", "": "r-", plotting.LayoutTree: "t-", plotting.LayoutFlame: "f-"}

// treeExplore says what clicks on a picture of a compacted tree stand for,
// or returns nil for the pictures that answer none: in show's pictures a
// click expands the node's region (expand NAME HANDLE), a shift-click
// compacts it, and breadcrumbs put the levels back; in a flame graph a
// click zooms to the node's subtree (flame … root=HANDLE), a click on the
// root bar of a zoomed graph zooms out.
func treeExplore(c *kernel.Call, o plotting.Options) *kernel.Explore {
	prefix, ok := nodePrefix[o.Layout]
	if !ok || o.Inverted {
		return nil
	}
	l := c.Profile()
	ex := &kernel.Explore{Command: c.CommandLine(kernel.InteractiveOption.Name)}
	handle := func(id string) string {
		h, ok := strings.CutPrefix(id, prefix)
		if !ok || strings.HasPrefix(h, "more-") {
			return ""
		}
		return h
	}
	if o.Layout == plotting.LayoutFlame {
		ex.Step = flameStep(c, o, handle)
		return ex
	}
	name, s := l.Name, c.Session
	ex.Step = func(cl kernel.Click, command string) (*kernel.Action, error) {
		h := handle(cl.ID)
		if h == "" {
			return nil, nil
		}
		step, delta := "expand", +1
		if cl.Shift {
			step, delta = "compact", -1
		}
		do := func(ctx context.Context) error {
			if s.Get(name) != l {
				return fmt.Errorf("%s was loaded again since this view was drawn: run its cell again", name)
			}
			_, _, err := stepLevels(ctx, l, handleOf(h), delta)
			return err
		}
		return &kernel.Action{Lines: []string{step + " " + quoteArg(name) + " " + h}, Do: do}, nil
	}
	ex.Save = func() func() error {
		was := l.State()
		v, _ := l.CompactedView(context.Background()) // cached: the view was just drawn
		return func() error {
			if s.Get(name) != l {
				return fmt.Errorf("%s was loaded again since this view was drawn: its levels are not the ones the view changed", name)
			}
			l.SetState(was, v)
			return nil
		}
	}
	return ex
}

// flameStep zooms: a click on a bar draws the graph rooted at it, a click
// on the root of a zoomed graph draws it whole.
func flameStep(c *kernel.Call, o plotting.Options, handle func(string) string) func(kernel.Click, string) (*kernel.Action, error) {
	whole := c.CommandLine(kernel.InteractiveOption.Name, "root")
	first := "" // the handle of the first picture's root=, when it had one
	if len(o.Roots) == 1 {
		if v, err := c.View(); err == nil {
			first = v.Handle(o.Roots[0])
		}
	}
	root := func(command string) string {
		if h, ok := strings.CutPrefix(command, whole+" root="); ok {
			return h
		}
		if command == whole {
			return ""
		}
		return first
	}
	return func(cl kernel.Click, command string) (*kernel.Action, error) {
		h := handle(cl.ID)
		switch {
		case h == "":
			return nil, nil
		case h == root(command):
			return &kernel.Action{Redraw: whole}, nil
		}
		return &kernel.Action{Redraw: whole + " root=" + h}, nil
	}
}

// quoteArg quotes a profile name for a command line when it needs it.
func quoteArg(s string) string {
	if !strings.ContainsAny(s, " \t\"#\\$") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", "$$").Replace(s) + `"`
}
