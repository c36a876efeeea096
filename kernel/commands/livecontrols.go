package commands

import (
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// liveControls shows the line of a background attachment (attach …
// background=true interactive=true) as a view with DYPER's controls: the
// budget, the kinds (their list in priority order), pause, resume and
// detach, each a click that stands for the command that does it (attach
// NAME budget=…, attach NAME kinds=…, pause NAME, resume NAME, detach
// NAME), run as a cell's; the view then shows what the command
// showed (the status line, or detach's summary). Without interactive it
// is the line alone.
func liveControls(c *kernel.Call, name string, b jupyter.Bundle) {
	h, _ := b["text/html"].(string)
	alt, _ := b["text/plain"].(string)
	n := quoteArg(name)
	lines := map[string]func(value string) string{
		"budget": func(v string) string { return "attach " + n + " budget=" + quoteArg(v) },
		"kinds":  func(v string) string { return "attach " + n + " kinds=" + quoteArg(v) },
		"pause":  func(string) string { return "pause " + n },
		"resume": func(string) string { return "resume " + n },
		"detach": func(string) string { return "detach " + n },
	}
	ex := &kernel.Explore{Command: "profiles",
		Controls: []kernel.Control{
			{Name: "budget", Label: "set budget", Kind: "text", Value: c.Opt("budget")},
			{Name: "kinds", Label: "set kinds", Kind: "text", Value: c.Opt("kinds")},
			{Name: "pause", Label: "pause", Kind: "button"},
			{Name: "resume", Label: "resume", Kind: "button"},
			{Name: "detach", Label: "detach", Kind: "button"},
		},
		Step: func(cl kernel.Click, _ string) (*kernel.Action, error) {
			line, ok := lines[cl.Name]
			if !ok {
				return nil, nil
			}
			l := line(cl.Value)
			return &kernel.Action{Lines: []string{l}, Redraw: l, Do: noChange}, nil
		},
	}
	c.ExploreHTML(h, alt, ex)
}
