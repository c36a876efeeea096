package commands

import (
	"fmt"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

// intervalExplore says what clicks on a phase strip stand for: an interval
// for interval NAME I, a phase of the legend for interval NAME phase=K.
func intervalExplore(c *kernel.Call, name string) *kernel.Explore {
	base := "interval " + quoteArg(name)
	return &kernel.Explore{Command: base, Step: func(cl kernel.Click, _ string) (*kernel.Action, error) {
		var i, k int
		switch {
		case sscan(cl.ID, "iv-%d", &i):
			return &kernel.Action{Redraw: fmt.Sprintf("%s %d", base, i)}, nil
		case sscan(cl.ID, "ph-%d", &k):
			return &kernel.Action{Redraw: fmt.Sprintf("%s phase=%d", base, k)}, nil
		}
		return nil, nil
	}}
}

func sscan(s, format string, v *int) bool {
	_, err := fmt.Sscanf(s, format, v)
	return err == nil && fmt.Sprintf(format, *v) == s
}

// showStrip shows the strip of a phases run as an explorable view (phases
// … interactive=true).
func showStrip(c *kernel.Call, l *kernel.Loaded, st *PhaseState) error {
	svg, err := plotting.PhaseStrip(st.Vectors, st.Result, "intervals of "+l.Name+" by phase: click one", nil)
	if err != nil {
		return err
	}
	c.Explore(svg, timelineText(l.Name, st), intervalExplore(c, l.Name))
	return nil
}
