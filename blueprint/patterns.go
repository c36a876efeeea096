package blueprint

import (
	"cmp"
	"math"
	"slices"
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

// The rules, for a box a and its callees (H is a box's total, its height;
// W its call count, its width; ≈ is Tolerance; "far" is Ratio). A callee
// that is a recursive call takes part in F only.
//
//	A sequential calls (at a; related: its callees): a has two callees or
//	  more, none recursive; their heights add up to a's (ΣH ≥ (1 −
//	  Tolerance) H(a)), and each has a's width (W ≈ W(a)): called once
//	  per call of a, in sequence, not in a loop.
//	B indirection (at a; related: b): a's one callee b, not recursive,
//	  looks like a (H(b) ≈ H(a) and W(b) ≈ W(a)).
//	C sporadic execution (at b; related: a): b is called far fewer times
//	  than a (W(b) × Ratio ≤ W(a)).
//	D multiple execution (at b; related: a): b is called far more times
//	  than a (W(b) ≥ Ratio × W(a)) and as tall (H(b) ≈ H(a)): a loop in
//	  a whose body is b.
//	E immediate value (at b; related: a): b is called far more times than
//	  a and takes little time (H(b) ≤ Tolerance × H(a)).
//	F recursion (at r; related: the call path from r down to the call
//	  back to r, that call included): a box calls back into r, an
//	  ancestor of the same name that is not itself such a call (one F per
//	  recursion, not one per level); or r calls itself inside its own box
//	  (Box.Recursion; related: r).
//
// Patterns G to I of the paper (non-altering delegation, chains, time
// consuming delegation) need to know which functions mutate their
// receiver, which profiles do not record; Box.Mutates carries what a side
// file says (Mutations), for the picture's shading only.
//
// Patterns returns the patterns in b, by descending height of the box they
// are about, then in pre-order, then by letter. Time is linear in the
// boxes times their depth.
func (b *Blueprint) Patterns(o PatternOptions) []Pattern {
	var total int64
	for _, r := range b.Roots {
		total += b.Boxes[r].Total
	}
	min := o.Min * float64(total)
	var out []Pattern
	for i := range b.Boxes {
		a := int32(i)
		if float64(b.Boxes[a].Total) < min {
			continue
		}
		out = append(out, b.callerPatterns(a, o)...)
		if n := b.Boxes[a].Recursion; n > 0 {
			out = append(out, Pattern{Letter: "F", Box: a, Related: []int32{a}, Evidence: map[string]any{
				"calls": n, "depth": 1, "height": b.Boxes[a].Total}})
		}
		for _, k := range b.Boxes[a].Kids {
			if r := b.Boxes[k].Recursive; r >= 0 {
				if b.Boxes[r].Recursive < 0 {
					out = append(out, b.recursion(k))
				}
			} else {
				out = append(out, b.calleePatterns(a, k, o)...)
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Pattern) int {
		return cmp.Or(cmp.Compare(b.Boxes[y.Box].Total, b.Boxes[x.Box].Total), cmp.Compare(x.Box, y.Box), cmp.Compare(x.Letter, y.Letter))
	})
	return out
}

// callerPatterns are A and B at a.
func (b *Blueprint) callerPatterns(a int32, o PatternOptions) []Pattern {
	box := &b.Boxes[a]
	kids := box.Kids
	if box.Calls <= 0 || len(kids) == 0 || slices.ContainsFunc(kids, func(k int32) bool { return b.Boxes[k].Recursive >= 0 }) {
		return nil
	}
	if len(kids) == 1 {
		k := &b.Boxes[kids[0]]
		if o.alike(k.Total, box.Total) && o.alike(k.Calls, box.Calls) {
			return []Pattern{{Letter: "B", Box: a, Related: kids, Evidence: map[string]any{
				"height": box.Total, "callee_height": k.Total, "width": box.Calls, "callee_width": k.Calls}}}
		}
		return nil
	}
	var sum int64
	widths := make([]int64, len(kids))
	for i, k := range kids {
		sum += b.Boxes[k].Total
		widths[i] = b.Boxes[k].Calls
		if !o.alike(widths[i], box.Calls) {
			return nil
		}
	}
	if float64(sum) < (1-o.Tolerance)*float64(box.Total) {
		return nil
	}
	return []Pattern{{Letter: "A", Box: a, Related: kids, Evidence: map[string]any{
		"height": box.Total, "callees_height": sum, "width": box.Calls, "callee_widths": widths}}}
}

// calleePatterns are C, D and E of a's callee k.
func (b *Blueprint) calleePatterns(a, k int32, o PatternOptions) []Pattern {
	ca, ck := &b.Boxes[a], &b.Boxes[k]
	if ca.Calls <= 0 || ck.Calls <= 0 {
		return nil
	}
	ev := map[string]any{"caller_height": ca.Total, "height": ck.Total, "caller_width": ca.Calls, "width": ck.Calls}
	p := Pattern{Box: k, Related: []int32{a}, Evidence: ev}
	switch {
	case float64(ck.Calls)*o.Ratio <= float64(ca.Calls):
		p.Letter, ev["ratio"] = "C", round2(float64(ca.Calls)/float64(ck.Calls))
	case float64(ck.Calls) >= o.Ratio*float64(ca.Calls) && o.alike(ck.Total, ca.Total):
		p.Letter, ev["ratio"] = "D", round2(float64(ck.Calls)/float64(ca.Calls))
	case float64(ck.Calls) >= o.Ratio*float64(ca.Calls) && float64(ck.Total) <= o.Tolerance*float64(ca.Total):
		p.Letter, ev["ratio"] = "E", round2(float64(ck.Calls)/float64(ca.Calls))
	default:
		return nil
	}
	return []Pattern{p}
}

// recursion is F for the recursive call k: at the ancestor it calls back.
func (b *Blueprint) recursion(k int32) Pattern {
	r := b.Boxes[k].Recursive
	var path []int32
	for p := k; p != r; p = b.Boxes[p].Parent {
		path = append(path, p)
	}
	slices.Reverse(path)
	return Pattern{Letter: "F", Box: r, Related: path, Evidence: map[string]any{
		"calls": b.Boxes[k].Calls, "depth": len(path), "height": b.Boxes[r].Total}}
}

// alike reports whether x ≈ y: they differ by at most Tolerance of the
// larger.
func (o PatternOptions) alike(x, y int64) bool {
	d := math.Abs(float64(x) - float64(y))
	return d <= o.Tolerance*math.Max(math.Abs(float64(x)), math.Abs(float64(y)))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
