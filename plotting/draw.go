package plotting

import (
	"bytes"
	"fmt"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// Layouts (kinds of picture, see Kind) and orders accepted by Draw.
const (
	LayoutRadial = "radial" // ProfVis's semi-circular fan
	LayoutTree   = "tree"   // a top-down tidy tree
	LayoutFlame  = "flame"  // an icicle: width ∝ total, depth = call depth
	// LayoutBlueprint is the Profiling Blueprint: height ∝ total, width ∝
	// log calls; it needs Options.Blueprint.
	LayoutBlueprint = "blueprint"

	OrderName   = "name"   // siblings alphabetical (FlameGraph, pprof)
	OrderWeight = "weight" // heaviest first (speedscope's left heavy)
)

// Default budgets: whatever the profile, a picture draws at most
// DefaultMaxNodes nodes (fold marks included) in at most DefaultMaxBytes of
// SVG. A larger MaxNodes raises the byte budget in proportion.
const (
	DefaultMaxNodes = 2000
	DefaultMaxBytes = 1 << 20
)

// Options say what to draw.
type Options struct {
	Layout   string  // a kind's name (Kinds): LayoutRadial (default), LayoutTree, LayoutFlame, LayoutBlueprint, LayoutSandwich or LayoutDiff
	Order    string  // OrderName or OrderWeight; default: the kind's
	Inverted bool    // the bottom-up graph (callers of the leaves), for kinds that invert
	Roots    []int32 // draw only these view nodes' subtrees; nil: the whole view
	MaxNodes int     // 0: DefaultMaxNodes
	Profile  string  // the profile's name in the session, for the title
	// Commands returns the command lines a compacted node's tooltip offers,
	// given the node's handle (the kernel's expand and compact); nil offers
	// none. Plotting knows no command syntax: the caller writes them.
	Commands func(handle string) []string
	// More is the last line of a fold mark's tooltip: how to draw more (the
	// kernel names its option for the node budget); "" adds none.
	More string
	// Since is the view of the previous picture (of the same call tree), or
	// nil. Drawn nodes that are new since (no node there has the same
	// members: what an expand or compact split or merged) are outlined and
	// fade in, ProfVis's animation between states in a still picture.
	Since *compaction.View
	// Blueprint is what LayoutBlueprint draws besides the view: its boxes
	// (made by blueprint.Of for the view), patterns and scales; the layout
	// needs it.
	Blueprint *Blueprint
	// Callers is, for LayoutSandwich, the callers half of a sandwich
	// (compaction.Sandwich); the view drawn is its callees half.
	Callers *compaction.View
	// Total is the weight that 100% stands for in the title, labels and
	// tooltips: the caller's total for every share it prints (the
	// profile's, with what no call path holds); 0 for the view's own.
	Total int64

	kind *Kind // Layout's, set by check
}

// Picture is a drawn view.
type Picture struct {
	SVG    []byte
	Text   string // the drawn tree as indented text
	Drawn  int    // drawn nodes, fold marks included
	Shown  int    // compacted nodes (or merged bottom-up nodes) drawn
	Folded int    // siblings folded into "+N more" marks
}

// Draw draws v. The result depends only on v and o: the same input gives the
// same bytes on every run and machine. It keeps to the size budget by
// folding the lightest nodes first, and retries with fewer nodes when the
// SVG would exceed the byte budget.
func Draw(v *compaction.View, o Options) (*Picture, error) {
	if err := o.check(v); err != nil {
		return nil, err
	}
	max := o.MaxNodes
	if max <= 0 {
		max = DefaultMaxNodes
	}
	budget := DefaultMaxBytes
	if max > DefaultMaxNodes {
		budget = int(int64(DefaultMaxBytes) * int64(max) / DefaultMaxNodes)
	}
	for {
		p := o.pic(v, max)
		var buf bytes.Buffer
		if err := o.kind.Paint(&buf, p, o); err != nil {
			return nil, err
		}
		if buf.Len() > budget && len(p.Items) > 2 {
			max = len(p.Items) * budget / buf.Len() * 9 / 10
			if max < 2 {
				max = 2
			}
			continue
		}
		text := Text(p, o.Profile)
		if o.kind.text != nil {
			text = o.kind.text(p, o)
		}
		return &Picture{SVG: buf.Bytes(), Text: text, Drawn: len(p.Items),
			Shown: len(p.Items) - marks(p), Folded: p.Hidden()}, nil
	}
}

// Select chooses what a picture of v draws under o's budget (MaxNodes,
// without the byte budget that Draw adds): the input of the layouts Flame,
// Radial and Tidy.
func Select(v *compaction.View, o Options) (*Pic, error) {
	if err := o.check(v); err != nil {
		return nil, err
	}
	max := o.MaxNodes
	if max <= 0 {
		max = DefaultMaxNodes
	}
	return o.pic(v, max), nil
}

// check validates o against v and fills in the kind's defaults.
func (o *Options) check(v *compaction.View) error {
	k, err := kindOf(o.Layout)
	if err != nil {
		return err
	}
	o.kind, o.Layout = k, k.Name
	switch o.Order {
	case "":
		o.Order = k.Order
	case OrderName, OrderWeight:
	default:
		return fmt.Errorf("draw: unknown order %q: want name or weight", o.Order)
	}
	if k.Name == LayoutBlueprint && o.Blueprint == nil {
		return fmt.Errorf("draw: the %s layout draws Options.Blueprint (blueprint.Of), and there is none", LayoutBlueprint)
	}
	if o.Inverted && !k.Inverts {
		return fmt.Errorf("draw: inverted is for the %s layout only", orList(inverting()))
	}
	for _, r := range o.Roots {
		if !v.Has(r) {
			return fmt.Errorf("draw: no node %d in the view (it has %d nodes)", r, v.After)
		}
	}
	return nil
}

// pic selects what to draw.
func (o *Options) pic(v *compaction.View, max int) *Pic {
	roots := o.Roots
	if roots == nil {
		roots = v.Roots
	}
	var src source = &topDown{v: v, roots: roots}
	switch {
	case o.kind.source != nil:
		src = o.kind.source(o, v)
	case o.Inverted:
		src = newBottomUp(v, roots)
	case o.kind.Startup && o.Roots == nil:
		src = newStartupSource(v, roots)
	}
	var scale int64
	for _, t := range src.tops() {
		scale += src.item(t).Total
	}
	min := int64(o.kind.MinShare * float64(scale))
	if min < 1 {
		min = 1
	}
	p := choose(src, max, min).pic(v, o.Order == OrderName)
	p.Bottom = o.Inverted
	p.New = fresh(p, o.Since)
	for _, b := range p.New {
		if b {
			p.Fresh++
		}
	}
	for _, r := range v.Roots {
		p.Total += v.Nodes[r].Total
	}
	if o.Total != 0 {
		p.Total = o.Total
	}
	return p
}

// fresh marks the items that stand for one compacted node that is new
// since the view since (see added); nil when nothing is compared.
func fresh(p *Pic, since *compaction.View) []bool {
	isNew := added(since, p.View)
	if isNew == nil || p.Bottom {
		return nil
	}
	out := make([]bool, len(p.Items))
	for i := range p.Items {
		if it := &p.Items[i]; it.Fold == 0 && len(it.Nodes) == 1 {
			out[i] = isNew(it.Nodes[0])
		}
	}
	return out
}

func marks(p *Pic) int {
	n := 0
	for i := range p.Items {
		if p.Items[i].Fold > 0 {
			n++
		}
	}
	return n
}

// valueType returns the view's value type, or plain samples without a tree.
func valueType(v *compaction.View) analysis.ValueType {
	if v != nil && v.Tree != nil && v.Tree.Profile != nil && v.Value < len(v.Tree.Profile.ValueTypes) {
		return v.Tree.Profile.ValueTypes[v.Value]
	}
	return analysis.ValueType{Type: "samples", Unit: "count"}
}
