package plotting

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// caption is what a node shows: its name as every view shows it (without
// the profile's common directory, analysis.Names.Short; the tooltip has it
// in full), and a shorter tail used when that does not fit: the name
// without its first element (the class and method without the package), or
// for a short name the last segment of its path.
type caption struct{ full, tail string }

func label(p *Pic, it *Item) caption {
	if it.Fold > 0 {
		return caption{full: fmt.Sprintf("+%d more (%s)", it.Fold, analysis.Percent(it.Total, p.Total)), tail: fmt.Sprintf("+%d", it.Fold)}
	}
	full := it.Name
	if t := p.View.Tree; t != nil {
		full = t.Names.Short(full)
	}
	e := elements(p.View, it.Nodes[0])
	if len(e) < 3 { // a package path: its last segment ("grpc", "http.(*conn)")
		return caption{full: full, tail: lastSegment(full)}
	}
	return caption{full: full, tail: strings.TrimLeft(strings.Join(e[1:], ""), "./:")}
}

// lastSegment returns the last segment of a slash-separated path, with the
// one before when the last is a major version ("go-grpc-middleware/v2").
func lastSegment(name string) string {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return name
	}
	if last := name[i+1:]; len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		return name[strings.LastIndex(name[:i], "/")+1:]
	}
	return name[i+1:]
}

// fit returns the full name when it fits in width pixels, else the tail,
// shortened if need be (see fit), or "".
func (c caption) fit(width float64) string {
	if l := fit(c.full, width); l == c.full {
		return l
	}
	return fit(c.tail, width)
}

// tip is a node's tooltip: its name, total and self with units and percent
// of the profile, its members, its handle and the command lines o offers
// for it.
func tip(p *Pic, id int32, o Options) string {
	it := &p.Items[id]
	vt := valueType(p.View)
	var b strings.Builder
	if it.Fold > 0 {
		fmt.Fprintf(&b, "+%d more: %d smaller nodes folded\ntotal %s (%s of the profile)",
			it.Fold, it.Fold, Amount(it.Total, vt), analysis.Percent(it.Total, p.Total))
		if o.More != "" {
			b.WriteString("\n" + o.More)
		}
		return b.String()
	}
	b.WriteString(it.Name)
	fmt.Fprintf(&b, "\ntotal %s (%s)", Amount(it.Total, vt), analysis.Percent(it.Total, p.Total))
	if p.Bottom {
		b.WriteString(" on call paths through here")
		return b.String() + handles(p, it, o)
	}
	fmt.Fprintf(&b, "\nself %s (%s)", Amount(it.Self, vt), analysis.Percent(it.Self, p.Total))
	return b.String() + handles(p, it, o)
}

// handle is the line naming a compacted node's members and handle, and the
// command lines o offers for it.
func handle(p *Pic, node int32, o Options) string {
	n, h := p.View.Nodes[node], p.View.Handle(node)
	s := fmt.Sprintf("\n%d member%s · handle %s", len(n.Members), plural(len(n.Members)), h)
	if o.Commands != nil {
		for _, c := range o.Commands(h) {
			s += "\n" + c
		}
	}
	return s
}

// handles lists the compacted nodes a bottom-up item merges.
func handles(p *Pic, it *Item, o Options) string {
	if len(it.Nodes) == 1 {
		return handle(p, it.Nodes[0], o)
	}
	hs := make([]string, 0, 8)
	for i, id := range it.Nodes {
		if i == 8 {
			hs = append(hs, fmt.Sprintf("… %d more", len(it.Nodes)-8))
			break
		}
		hs = append(hs, p.View.Handle(id))
	}
	return fmt.Sprintf("\n%d compacted nodes: %s", len(it.Nodes), strings.Join(hs, " "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
