package plotting

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Text returns the drawn tree as indented text, one node per line:
// `name [total] percent handle`, two spaces per depth, fold marks included.
// It is the text/plain form of a picture.
func Text(p *Pic, profile string) string {
	var b strings.Builder
	vt := valueType(p.View)
	kind := "top-down"
	if p.Bottom {
		kind = "bottom-up"
	}
	if profile != "" {
		b.WriteString(profile + " · ")
	}
	fmt.Fprintf(&b, "%s: %d nodes drawn", kind, len(p.Items))
	if h := p.Hidden(); h > 0 {
		fmt.Fprintf(&b, ", %d folded", h)
	}
	b.WriteString("\n")
	var walk func(ids []int32)
	walk = func(ids []int32) {
		for _, id := range ids {
			it := &p.Items[id]
			b.WriteString(strings.Repeat("  ", int(it.Depth)))
			name := it.Name
			if p.View.Tree != nil {
				name = p.View.Tree.Names.Short(name)
			}
			if it.Fold > 0 {
				name = fmt.Sprintf("+%d more", it.Fold)
			}
			fmt.Fprintf(&b, "%s [%s] %s", name, Amount(it.Total, vt), analysis.Percent(it.Total, p.Total))
			if it.Fold == 0 && len(it.Nodes) == 1 {
				b.WriteString(" " + p.View.Handle(it.Nodes[0]))
			}
			b.WriteString("\n")
			walk(it.Kids)
		}
	}
	walk(p.Top)
	return b.String()
}
