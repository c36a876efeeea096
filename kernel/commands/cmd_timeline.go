package commands

import "github.com/proflens/proflens/kernel"

var timelineCommand = &kernel.Command{
	Name:    "timeline",
	Summary: "Phases over time as coloured bands, with the sample rate as a line.",
	Doc: "Uses the last phases run of the profile (running phases with its defaults when there is none). " +
		"The line is samples per second of each interval (samples per profile for a series): gaps and idle " +
		"stretches show as drops to zero.",
	Examples: []string{"load demo:phasedemo", "timeline"},
	Profiles: 1,
	Run:      runTimeline,
}

func runTimeline(c *kernel.Call) error {
	l := c.Profile()
	st, err := lastPhases(c)
	if err != nil {
		return err
	}
	svg, err := timelinePicture(l.Name, st)
	if err != nil {
		return err
	}
	phasesKey.Set(l, st)
	l.SetPicture(svg, nil)
	c.Picture(svg, timelineText(l.Name, st))
	return nil
}
