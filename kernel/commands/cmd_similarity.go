package commands

import (
	"fmt"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/phase"
	"github.com/proflens/proflens/plotting"
)

var similarityCommand = &kernel.Command{
	Name:    "similarity",
	Summary: "Heatmap of window-vector similarity between intervals, with phase bands.",
	Doc: "SimPoint's similarity matrix over JIVE's window vectors: cell (i, j) is W_i·W_j, darker is more " +
		"similar; recurring phases show as dark off-diagonal blocks. The detected phases run as coloured " +
		"bands along both axes. Above 500 intervals, cells average blocks of intervals (the title says so). " +
		"Uses the last phases run of the profile (running phases with its defaults when there is none).",
	Examples: []string{"load demo:phasedemo", "similarity"},
	Profiles: 1,
	Run:      runSimilarity,
}

func runSimilarity(c *kernel.Call) error {
	l := c.Profile()
	st, err := lastPhases(c)
	if err != nil {
		return err
	}
	s, err := phase.NewSimilarity(c.Ctx, st.Vectors, st.Result.Params.Window, phase.MaxCells, st.Result.Params.MaxCells)
	if err != nil {
		return phaseError(l.Name, err)
	}
	svg, err := plotting.SimilarityChart(s, st.Result, "similarity of "+l.Name)
	if err != nil {
		return fmt.Errorf("similarity %s: %w", l.Name, err)
	}
	alt := fmt.Sprintf("similarity of %s: %d intervals", l.Name, s.N)
	if s.Averaged() {
		alt += fmt.Sprintf(", averaged into %d×%d cells", s.Side(), s.Side())
	}
	phasesKey.Set(l, st)
	l.SetPicture(svg, nil)
	c.Picture(svg, alt)
	return nil
}
