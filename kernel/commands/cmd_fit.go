package commands

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
)

var fitCommand = &kernel.Command{
	Name:    "fit",
	Summary: "Choose per-region levels so the compacted tree has at most N nodes, the heaviest regions the most detailed.",
	Doc: "From the fully compacted view (level 1), fit expands one compacted node at a time (ProfVis's local " +
		"expansion, so R1 and R2 hold): each time the node whose expansion shows the most self weight, not yet " +
		"shown under its function's full name, per node it adds, while the view stays within `nodes`. Nodes " +
		"with a frame matching `keep` go first. The result replaces the profile's levels; `view`, `show` and " +
		"`flame` then draw it. The view never has more than `nodes` nodes: when even the fully compacted view " +
		"has more, levels can go no coarser, and the lightest regions fold into one \"other (K nodes)\" node " +
		"under their parent, which keeps their weight (pprof's `-nodecount` drops them); `expand` or `compact` " +
		"on a shown node then steps the whole view, unfolded. The note says what was folded and how much weight, " +
		"and how much of the weight the view shows under the full name of the function at the top of the stack, " +
		"against the N heaviest functions that pprof's `-nodecount=N` lists.",
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

// fitNote says what the fit shows: its node count against the budget,
// what was folded, and the weight shown under functions' full names
// against pprof's -nodecount=N.
func fitNote(l *kernel.Loaded, v *compaction.View, n int) string {
	top := analysis.NewTop(l.Tree(), analysis.TopOptions{Value: l.Value, N: n})
	var kept int64
	for _, r := range top.Rows {
		kept += r.Flat
	}
	w := wholeOf(l.Tree(), l.Value)
	total, vt := w.Total, v.Unit()
	amount := func(x int64) string {
		return fmt.Sprintf("%s of %s (%s)", analysis.FormatValue(x, vt.Unit), analysis.FormatValue(total, vt.Unit), analysis.Percent(x, total))
	}
	s := fmt.Sprintf("fit nodes=%d: %d call-tree nodes → %d nodes", n, v.Before, v.After)
	if whole := v.Whole(); whole != v {
		var folds, folded int
		var weight int64
		for _, nd := range v.Nodes {
			if nd.Folded > 0 {
				folds, folded, weight = folds+1, folded+nd.Folded, weight+nd.Total
			}
		}
		where := "under its parent"
		if folds > 1 {
			where = "each under its parent"
		}
		s += fmt.Sprintf(". At level 1, the coarsest, the view has %d compacted nodes already, so %d of the lighter ones fold into %s, "+
			"%s, with %s of the %s", whole.After, folded, kernel.CountOf(folds, `"other" node`), where, amount(weight), vt.Type)
	}
	return s + fmt.Sprintf(". The function at the top of the stack is shown under its full name for %s; the rest is under "+
		"a package, a class or \"other\". pprof -nodecount=%d lists the %d heaviest functions alone, without their callers: "+
		"they hold %s as their own (flat) weight", amount(v.Named()), n, n, analysis.Percent(kept, total)) + strings.TrimSuffix(". "+w.restSentence(), ". ")
}
