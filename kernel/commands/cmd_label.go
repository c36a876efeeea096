package commands

import (
	"fmt"
	"strconv"

	"github.com/proflens/proflens/kernel"
)

var labelCommand = &kernel.Command{
	Name:    "label",
	Summary: "Name a phase of the last phases run; labels appear in tables, plots and saved sets.",
	Doc: "A label follows the behaviour, not the id: a later phases run gives it to the phase whose vector " +
		"matches the labelled one's above delta.",
	Args:     []kernel.Arg{{Name: "PHASE", Doc: "phase id, as in the phases table", Kind: kernel.KindNumber}, {Name: "TEXT", Doc: "the label (quote it when it has spaces)", Kind: kernel.KindText}},
	Examples: []string{"load demo:phasedemo", "phases", `label 1 "parse numbers"`, `label 0 idle`},
	Profiles: 1,
	Run:      runLabel,
}

func runLabel(c *kernel.Call) error {
	l := c.Profile()
	id, err := strconv.Atoi(c.Args[0])
	if err != nil {
		return c.Usagef("phase %q is not a number: use an id from the phases table", c.Args[0])
	}
	if phasesKey.Get(l) == nil || phasesKey.Get(l).Result == nil {
		return fmt.Errorf("label: %s has no phases yet: run phases first", l.Name)
	}
	ph := phasesKey.Get(l).Result.Phase(id)
	if ph == nil {
		return fmt.Errorf("label: %s has no phase %d: use an id from the phases table", l.Name, id)
	}
	phasesKey.Get(l).Labels[id] = c.Args[1]
	ph.Label = c.Args[1]
	c.Out.Display(phaseTable(l, phasesKey.Get(l)), nil)
	return nil
}
