package blueprint

import (
	"cmp"
	"math"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// Pattern is one of the visual patterns of the paper's Figure 2 found in
// a Blueprint: Letter "A" to "F", the box it is about, and the boxes it
// relates that box to.
type Pattern struct {
	Letter   string
	Box      int32
	Related  []int32
	Evidence map[string]any // the numbers the rule read, by name
}

// PatternNames names the patterns as the paper does.
var PatternNames = map[string]string{"A": "sequential calls", "B": "indirection", "C": "sporadic execution",
	"D": "multiple execution", "E": "immediate value", "F": "recursion"}

// PatternOptions are the rules' tolerances; DefaultPatternOptions has
// their defaults.
type PatternOptions struct {
	// Tolerance: two figures are alike ("≈", the same height or width) when
	// they differ by at most this fraction of the larger; a figure is
	// "little" when at most this fraction of another.
	Tolerance float64
	// Ratio: a count is far larger than another when at least Ratio times
	// it.
	Ratio float64
	// Min: patterns are looked for only where the caller (a, the box
	// above) has at least this share of the blueprint's total.
	Min float64
}

// DefaultPatternOptions: alike within 10%, far at 10 times, callers of 1%
// of the total or more.
var DefaultPatternOptions = PatternOptions{Tolerance: 0.1, Ratio: 10, Min: 0.01}

// The rules, for a box a and the boxes it calls (H is a box's total, its
// height; W its call count, its width; for an edge a → b, H(a→b) is b's
// value in its calls from a, W(a→b) the number of these calls; ≈ is
// Tolerance; "far" is Ratio). A call that enters a box already on the
// stack (a crossing edge: Edge.Back) takes part in F only. A, C, D and E
// read counts, and are not looked for in a blueprint without (Counts "");
// B then reads the heights alone.
//
//	A sequential calls (at a; related: its callees): a calls two boxes or
//	  more, none through a crossing edge; their heights add up to a's
//	  (ΣH(a→b) ≥ (1 − Tolerance) H(a)), and each is called as many times
//	  as a (W(a→b) ≈ W(a)): once per call of a, in sequence, not in a loop.
//	B indirection (at a; related: b): a calls one box, b, not through a
//	  crossing edge, and it looks like a (H(a→b) ≈ H(a) and W(a→b) ≈
//	  W(a)).
//	C sporadic execution (at b; related: a): b is called from a far fewer
//	  times than a is called (W(a→b) × Ratio ≤ W(a)).
//	D multiple execution (at b; related: a): b is called from a far more
//	  times than a is called (W(a→b) ≥ Ratio × W(a)), and as tall
//	  (H(a→b) ≈ H(a)): a loop in a whose body is b.
//	E immediate value (at b; related: a): b is called from a far more
//	  times than a is, and takes little time there (H(a→b) ≤ Tolerance ×
//	  H(a)).
//	F recursion (at r; related: the path from r down to the call back,
//	  that call included): a function at its full name is called while it
//	  is on the stack, directly or through others (a Cycle); one F per
//	  function and outermost box, not one per level. Names merged by
//	  compaction, placeholders ("[unknown]") and different functions of
//	  one name group are never recursion.
//
// Patterns G to I of the paper (non-altering delegation, chains, time
// consuming delegation) need to know which functions mutate their
// receiver, which profiles do not record; Box.Mutates carries what a side
// file says (Mutations), for the picture's shading only.
//
// Patterns returns the patterns in b, by descending height of the box they
// are about, then in drawing order, then by letter. Time is linear in the
// boxes, edges and cycles.
func (b *Blueprint) Patterns(o PatternOptions) []Pattern {
	var total int64
	for _, r := range b.Roots {
		total += b.Boxes[r].Total
	}
	min := o.Min * float64(total)
	var out []Pattern
	for a, es := range b.out() {
		if float64(b.Boxes[a].Total) < min {
			continue
		}
		out = append(out, b.callerPatterns(int32(a), es, o)...)
		for _, e := range es {
			if !b.Edges[e].Back && b.Counts != "" {
				out = append(out, b.calleePatterns(&b.Edges[e], o)...)
			}
		}
	}
	for _, c := range b.Cycles {
		if float64(b.Boxes[c.Box].Total) >= min {
			ev := map[string]any{"depth": c.Depth, "height": b.Boxes[c.Box].Total, "function": c.Function}
			if b.Counts != "" && analysis.Noun(b.Counts) == "calls" {
				ev["calls"] = c.Calls
			}
			out = append(out, Pattern{Letter: "F", Box: c.Box, Related: c.Path, Evidence: ev})
		}
	}
	rank := make([]int, len(b.Boxes))
	for i, x := range b.drawingOrder() {
		rank[x] = i
	}
	slices.SortStableFunc(out, func(x, y Pattern) int {
		return cmp.Or(cmp.Compare(b.Boxes[y.Box].Total, b.Boxes[x.Box].Total), cmp.Compare(rank[x.Box], rank[y.Box]), cmp.Compare(x.Letter, y.Letter))
	})
	return out
}

// drawingOrder returns the boxes in drawing pre-order.
func (b *Blueprint) drawingOrder() []int32 {
	var out []int32
	var visit func(i int32)
	visit = func(i int32) {
		out = append(out, i)
		for _, k := range b.Boxes[i].Kids {
			visit(k)
		}
	}
	for _, r := range b.Roots {
		visit(r)
	}
	return out
}

// callerPatterns are A and B at a, whose edges are es.
func (b *Blueprint) callerPatterns(a int32, es []int32, o PatternOptions) []Pattern {
	box := &b.Boxes[a]
	counted := b.Counts != ""
	if len(es) == 0 || counted && box.Calls <= 0 || slices.ContainsFunc(es, func(e int32) bool { return b.Edges[e].Back }) {
		return nil
	}
	if len(es) == 1 {
		e := &b.Edges[es[0]]
		if !o.alike(e.Total, box.Total) || counted && !o.alike(e.Calls, box.Calls) {
			return nil
		}
		ev := map[string]any{"height": box.Total, "callee_height": e.Total}
		if counted {
			ev["width"], ev["callee_width"] = box.Calls, e.Calls
		}
		return []Pattern{{Letter: "B", Box: a, Related: []int32{e.To}, Evidence: ev}}
	}
	if !counted {
		return nil
	}
	var sum int64
	widths := make([]int64, len(es))
	related := make([]int32, len(es))
	for i, x := range es {
		e := &b.Edges[x]
		sum += e.Total
		widths[i], related[i] = e.Calls, e.To
		if !o.alike(e.Calls, box.Calls) {
			return nil
		}
	}
	if float64(sum) < (1-o.Tolerance)*float64(box.Total) {
		return nil
	}
	return []Pattern{{Letter: "A", Box: a, Related: related, Evidence: map[string]any{
		"height": box.Total, "callees_height": sum, "width": box.Calls, "callee_widths": widths}}}
}

// calleePatterns are C, D and E of the callee of e.
func (b *Blueprint) calleePatterns(e *Edge, o PatternOptions) []Pattern {
	ca := &b.Boxes[e.From]
	if ca.Calls <= 0 || e.Calls <= 0 || e.From == e.To {
		return nil
	}
	ev := map[string]any{"caller_height": ca.Total, "height": e.Total, "caller_width": ca.Calls, "width": e.Calls}
	p := Pattern{Box: e.To, Related: []int32{e.From}, Evidence: ev}
	switch {
	case float64(e.Calls)*o.Ratio <= float64(ca.Calls):
		p.Letter, ev["ratio"] = "C", round2(float64(ca.Calls)/float64(e.Calls))
	case float64(e.Calls) >= o.Ratio*float64(ca.Calls) && o.alike(e.Total, ca.Total):
		p.Letter, ev["ratio"] = "D", round2(float64(e.Calls)/float64(ca.Calls))
	case float64(e.Calls) >= o.Ratio*float64(ca.Calls) && float64(e.Total) <= o.Tolerance*float64(ca.Total):
		p.Letter, ev["ratio"] = "E", round2(float64(e.Calls)/float64(ca.Calls))
	default:
		return nil
	}
	return []Pattern{p}
}

// alike reports whether x ≈ y: they differ by at most Tolerance of the
// larger.
func (o PatternOptions) alike(x, y int64) bool {
	d := math.Abs(float64(x) - float64(y))
	return d <= o.Tolerance*math.Max(math.Abs(float64(x)), math.Abs(float64(y)))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
