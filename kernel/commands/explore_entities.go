package commands

import (
	"context"
	"strings"

	"github.com/proflens/proflens/kernel"
)

// entitiesExplore says what a click on an arc of an entity graph stands
// for: the calls behind it, listed under the picture.
func entitiesExplore(c *kernel.Call) *kernel.Explore {
	base := c.CommandLine(kernel.InteractiveOption.Name)
	var rest []string
	if c.Has("mapping") {
		rest = append(rest, "mapping="+quoteArg(c.Opt("mapping")))
	}
	profile := quoteArg(c.Profile().Name)
	return &kernel.Explore{Command: base, Step: func(cl kernel.Click, _ string) (*kernel.Action, error) {
		from, to, ok := strings.Cut(cl.Title, " → ")
		if !ok {
			return nil, nil
		}
		line := strings.Join(append([]string{"calls", profile, quoteArg(from), quoteArg(to)}, rest...), " ")
		return &kernel.Action{Lines: []string{line}, Redraw: base + "\n" + line, Do: noChange}, nil
	}}
}

// noChange is the Do of a click whose lines change nothing: they run once,
// as the view's redraw.
func noChange(context.Context) error { return nil }
