package plotting

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/blueprint"
)

// blueprintText is the text/plain form of a blueprint: the start-up chain,
// then one line per drawn box, `name [total] percent · count`, two spaces
// per depth, with its callers and their calls when it has several, and
// its handle by context.
func blueprintText(p *Pic, o Options) string {
	bp := o.Blueprint
	b := bp.Boxes
	vt := valueType(p.View)
	var out strings.Builder
	if o.Profile != "" {
		out.WriteString(o.Profile + " · ")
	}
	by := "by function"
	if b.By == blueprint.ByContext {
		by = "by context"
	}
	fmt.Fprintf(&out, "blueprint %s: %d boxes drawn", by, len(p.Items))
	if h := p.Hidden(); h > 0 {
		fmt.Fprintf(&out, ", %d folded", h)
	}
	width := "widths: " + countsNoun(b.Counts)
	if b.Counts == "" {
		width = "no call counts"
	}
	fmt.Fprintf(&out, "; heights: %s; %s\n", vt.Type, width)
	if len(b.Startup) > 0 {
		fmt.Fprintf(&out, "%s [%s] %s\n", startupLabel(b), Amount(b.StartupTotal, vt), analysis.Percent(b.StartupTotal, p.Total))
	}
	var names *analysis.Names
	if p.View.Tree != nil {
		names = p.View.Tree.Names
	}
	var walk func(ids []int32)
	walk = func(ids []int32) {
		for _, id := range ids {
			it := &p.Items[id]
			out.WriteString(strings.Repeat("  ", int(it.Depth)))
			if it.Fold > 0 {
				fmt.Fprintf(&out, "+%d more [%s] %s\n", it.Fold, Amount(it.Total, vt), analysis.Percent(it.Total, p.Total))
				continue
			}
			bx := bp.boxOf(it)
			fmt.Fprintf(&out, "%s [%s] %s · %s", names.Short(it.Name), Amount(it.Total, vt), analysis.Percent(it.Total, p.Total),
				countOf(b.Counts, b.Boxes[bx].Calls))
			if callers := callersOf(b, bx); len(callers) > 1 {
				out.WriteString(" · from " + strings.Join(callers, ", "))
			}
			if len(it.Nodes) == 1 {
				out.WriteString(" " + p.View.Handle(it.Nodes[0]))
			}
			out.WriteString("\n")
			walk(it.Kids)
		}
	}
	walk(p.Top)
	return out.String()
}
