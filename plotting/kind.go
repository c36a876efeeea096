package plotting

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/proflens/proflens/compaction"
)

// A Kind is one kind of picture of a compacted tree: the name that asks for
// it (Options.Layout), what its title calls it, its defaults, its budget rule
// and its painter, which lays the selection out and writes the SVG.
//
// A new kind is a painter in a file of its own, named for the kind
// (radial.go, tidy.go, flame.go, blueprint.go, sandwich.go, diff.go): a
// layout function and a func(io.Writer, *Pic, Options) error that draws
// through a canvas, and one entry in kinds.
type Kind struct {
	Name    string // the value of Options.Layout
	Title   string // what the picture's first line calls it
	Order   string // the siblings' default order: OrderName or OrderWeight
	Inverts bool   // whether it draws the bottom-up graph (Options.Inverted)
	// MinShare is the budget's weight rule: the smallest share of the
	// picture a node must have to be drawn, about one pixel; lighter nodes
	// fold into the "+N more" marks. (The node and byte budgets are the same
	// for every kind: Options.MaxNodes, DefaultMaxBytes.)
	MinShare float64
	Paint    func(w io.Writer, p *Pic, o Options) error
	// source, when set, is what the kind selects from (by default the
	// view top-down, or bottom-up when inverted).
	source func(o *Options, v *compaction.View) source
	// Startup says the kind draws each start-up chain as one bar (when it
	// draws the whole view top-down).
	Startup bool
	// text, when set, is the picture's text/plain form (by default Text).
	text func(p *Pic, o Options) string
}

// kinds is every kind of picture of a compacted tree, the default first.
var kinds = []Kind{
	{Name: LayoutRadial, Title: "radial view", Order: OrderWeight, MinShare: 1 / (math.Pi * radialRadius), Paint: paintRadial, Startup: true},
	{Name: LayoutTree, Title: "tree", Order: OrderWeight, MinShare: 1.0 / 100, Paint: paintTree, Startup: true},
	{Name: LayoutFlame, Title: "icicle", Order: OrderName, Inverts: true, MinShare: 0.5 / flameWidth, Paint: paintFlame, Startup: true},
	{Name: LayoutBlueprint, Title: "blueprint", Order: OrderWeight, MinShare: 1.0 / 1000, Paint: paintBlueprint, source: blueprintFor, text: blueprintText},
	{Name: LayoutSandwich, Title: "sandwich", Order: OrderName, MinShare: 0.5 / flameWidth, Paint: paintSandwich},
	{Name: LayoutDiff, Title: "differential icicle", Order: OrderName, MinShare: 0.5 / flameWidth, Paint: paintDiff},
}

// Kinds returns the names of the kinds of picture, the default first.
func Kinds() []string {
	out := make([]string, len(kinds))
	for i := range kinds {
		out[i] = kinds[i].Name
	}
	return out
}

// kindOf returns the kind named name ("" is the default).
func kindOf(name string) (*Kind, error) {
	if name == "" {
		return &kinds[0], nil
	}
	for i := range kinds {
		if kinds[i].Name == name {
			return &kinds[i], nil
		}
	}
	return nil, fmt.Errorf("draw: unknown layout %q: want %s", name, orList(Kinds()))
}

// inverting returns the names of the kinds that draw a bottom-up graph.
func inverting() []string {
	var out []string
	for i := range kinds {
		if kinds[i].Inverts {
			out = append(out, kinds[i].Name)
		}
	}
	return out
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
