package kernel

import (
	"errors"
	"fmt"

	"github.com/proflens/proflens/kernel/jupyter"
)

// Progress is a progress line. A progress line shows the steps of a long command (a large load, phases
// on a long recording) in one output that front ends update in place, and
// turns into a one-line summary when the command is done, or says it
// stopped. Whether a command shows one depends on its input's size, never
// on time, and the saved output is only the summary, so a notebook still
// gives the same bytes on every run. Where the output cannot update (proflens
// run), only the summary shows.
type Progress struct {
	c     *Call
	u     jupyter.Updater // nil: only the summary shows
	id    string
	quiet bool // the command is not long: nothing shows
}

// StartProgress shows text as the first step of a progress line.
func StartProgress(c *Call, text string) *Progress {
	p := &Progress{c: c}
	if u, ok := c.Out.(jupyter.Updater); ok {
		c.Session.displays++
		p.u, p.id = u, fmt.Sprintf("proflens-progress-%d", c.Session.displays)
		u.DisplayID(p.id, progressLine(text), nil)
	}
	return p
}

// QuietProgress returns a progress that shows nothing, for a command that
// is not long this time: its Step and Done do nothing.
func QuietProgress(c *Call) *Progress { return &Progress{c: c, quiet: true} }

func progressLine(text string) jupyter.Bundle { return jupyter.Bundle{"text/plain": text} }

// Step replaces the line by text.
func (p *Progress) Step(text string) {
	if p.u != nil {
		p.u.Update(p.id, progressLine(text), nil)
	}
}

// Done replaces the line by summary, or, when err is not nil, says that
// what was in progress stopped and why.
func (p *Progress) Done(summary string, err error) {
	if err != nil {
		reason := "failed"
		if p.c.Ctx.Err() != nil || errors.Is(err, p.c.Ctx.Err()) {
			reason = "interrupted"
		}
		summary += ": stopped, " + reason
	}
	if p.u != nil {
		p.u.Update(p.id, progressLine(summary), nil)
		return
	}
	if err == nil && !p.quiet {
		p.c.Out.Display(progressLine(summary), nil)
	}
}

// updaterBudget is a budgetOutput over an output that can update displays;
// progress lines are a line each and pass outside the budget.
type updaterBudget struct {
	*budgetOutput
	jupyter.Updater
}
