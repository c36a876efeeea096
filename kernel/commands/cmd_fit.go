package commands

import (
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
)

var fitCommand = &kernel.Command{
	Name:    "fit",
	Summary: "Choose per-region levels so the compacted tree has at most N nodes, the heaviest regions the most detailed.",
	Doc: "From the fully compacted view (level 1), fit expands one compacted node at a time (ProfVis's local " +
		"expansion, so R1 and R2 hold): each time the node whose expansion shows the most self weight, not yet " +
		"shown with its function's own name, per node it adds, while the view stays within `nodes`. Nodes " +
		"with a frame matching `keep` go first. The result replaces the profile's levels; `view`, `show` and " +
		"`flame` then draw it. The note says how much of the weight the view shows with its own name, against " +
		"the N heaviest functions that pprof's `-nodecount=N` keeps. When even the fully compacted view has " +
		"more nodes, fit leaves it at level 1 and says so (pictures fold the lightest nodes).",
	Options: []kernel.Option{
		{Name: "nodes", Doc: "most compacted nodes", Default: "100", Kind: kernel.KindNumber},
		{Name: "keep", Doc: "regions with a frame whose full name matches this go first", Kind: kernel.KindRegexp},
		stepMaxOpt,
	},
	Examples: []string{"load demo:profvis-toy as toy", "fit nodes=6", "fit toy nodes=5 keep=Pressure"},
	Profiles: 1,
	Run:      runFit,
}

func runFit(c *kernel.Call) error {
	n, err := c.PositiveInt("nodes")
	if err != nil {
		return err
	}
	keep, err := c.Regexp("keep")
	if err != nil {
		return err
	}
	l := c.Profile()
	v, err := l.CompactedView(c.Ctx)
	if err != nil {
		return err
	}
	if v, err = compaction.Fit(c.Ctx, v, n, keep); err != nil {
		return err
	}
	l.SetState(v.State(), v)
	return showView(c, v, fitNote(l, v, n))
}

// fitNote says what the fit shows: its node count against the budget, and
// the weight shown with its own name against pprof's -nodecount=N.
func fitNote(l *kernel.Loaded, v *compaction.View, n int) string {
	top := analysis.NewTop(l.Tree(), analysis.TopOptions{Value: l.Value, N: n})
	var kept, total int64
	for _, r := range top.Rows {
		kept += r.Flat
	}
	for _, r := range v.Roots {
		total += v.Nodes[r].Total
	}
	unit := v.Unit().Unit
	s := fmt.Sprintf("fit nodes=%d: %d call-tree nodes → %d compacted nodes", n, v.Before, v.After)
	if v.After > n {
		s += fmt.Sprintf(", more than %d: the fully compacted view has that many already, and levels go no coarser", n)
	}
	return s + fmt.Sprintf("; shown with its own name: %s of %s (%s); the %d heaviest functions (pprof -nodecount=%d): %s",
		analysis.FormatValue(v.Named(), unit), analysis.FormatValue(total, unit), analysis.Percent(v.Named(), total),
		n, n, analysis.Percent(kept, total))
}
