package compaction

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/proflens/proflens/analysis"
)

// Fit chooses per-region levels of v's call tree so that the compacted view
// (in v's value type) has at most n nodes while the heaviest regions are the
// most detailed. v's levels are not read: it gives the tree and its
// interned names, and when it is the fully compacted view it is the
// starting point itself.
//
// From the fully compacted view (level 1 everywhere), Fit expands one
// compacted node at a time, a ProfVis step: the node whose expansion shows
// the most hidden self weight per node it adds (estimated by the distinct
// names its members show one element finer, less one). A node's self
// weight is hidden while some of it belongs to functions whose full names
// the node does not show. Nodes with a member whose full name matches keep
// (when not nil) go first, also when they hide no weight. An expansion
// that would pass n nodes is left out for good (an expansion is local: it
// adds as many nodes later as now), and so is one that Step refuses: from
// level 1, expansions never break R1 or R2 (a node splits into nodes one
// element finer, and its children's names never start with theirs), so
// Step refuses only a node that shows full names already.
// Ties go to the heavier node, then by name and handle, so the result is
// the same on every run. When the fully compacted view has more than n
// nodes already, levels can go no coarser: its lightest regions fold into
// "other" nodes (Fold), so that the result never has more than n nodes.
//
// Each expansion is a Step, and choosing among the candidates costs the
// view's size; a node is left out at most once. When ctx is done, Fit
// stops with ctx's error.
func Fit(ctx context.Context, v *View, n int, keep *regexp.Regexp) (*View, error) {
	if n < 1 {
		return nil, fmt.Errorf("fit: %d nodes: want at least 1", n)
	}
	v = v.Whole()
	t := v.Tree
	if slices.ContainsFunc(v.state.Levels(), func(g int32) bool { return g != 1 }) {
		s, _, err := v.state.SetLevel(t, 1, nil)
		if err != nil {
			return nil, err
		}
		if v, err = CompactContext(ctx, t, s, v.Value); err != nil {
			return nil, err
		}
	}
	f := &fitter{kept: keptFrames(t, keep), known: map[*int32]candidate{}, tried: map[*int32]bool{}}
	for v.After <= n {
		best := f.best(v)
		if best < 0 {
			break
		}
		f.tried[key(v.Nodes[best])] = true
		_, next, err := StepContext(ctx, v, best, +1)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err == nil && next.After <= n:
			v = next
		}
	}
	return Fold(v, n), nil
}

// candidate is what Fit knows of a node: its hidden self weight, the
// names its expansion shows, and whether it holds a frame to keep.
type candidate struct {
	hidden int64
	names  int  // names one element finer (see candidateOf)
	kept   bool // a member's frame matches keep
	open   bool // a member is not at its full name: the node can expand
}

// eligible reports whether the node is worth expanding: it hides weight,
// or it is to be kept and can expand.
func (c candidate) eligible() bool { return c.hidden != 0 || c.kept && c.open }

// fitter keeps, across the steps of one Fit, each node's candidate and
// the nodes tried, by their members (which a step shares with the nodes it
// does not remake, even when it copies them).
type fitter struct {
	kept  []bool // per frame: matches keep
	known map[*int32]candidate
	tried map[*int32]bool // the nodes tried: taken, too large or refused
}

// key identifies a node by its members' array.
func key(nd *Node) *int32 { return &nd.Members[0] }

// best returns the id of the node to expand next, or -1.
func (f *fitter) best(v *View) int32 {
	best, bc := int32(-1), candidate{}
	for _, i := range v.Preorder() {
		nd := v.Nodes[i]
		if f.tried[key(nd)] {
			continue
		}
		c, ok := f.known[key(nd)]
		if !ok {
			c = f.candidateOf(v, nd)
			f.known[key(nd)] = c
		}
		if c.eligible() && (best < 0 || better(v, i, c, best, bc)) {
			best, bc = i, c
		}
	}
	return best
}

// better reports whether node i (candidate c) goes before node j (d).
func better(v *View, i int32, c candidate, j int32, d candidate) bool {
	if c.kept != d.kept {
		return c.kept
	}
	switch cs, ds := c.score(), d.score(); {
	case cs != ds:
		return cs > ds
	case c.hidden != d.hidden:
		return c.hidden > d.hidden
	case v.Nodes[i].Name != v.Nodes[j].Name:
		return v.Nodes[i].Name < v.Nodes[j].Name
	}
	return v.Handle(i) < v.Handle(j)
}

// score is the hidden weight per node the expansion adds, a split into
// one name (no node added) counting as half a node.
func (c candidate) score() float64 {
	return float64(c.hidden) / max(float64(c.names-1), 0.5)
}

// candidateOf measures node nd of v: the self weight of its members whose
// full names it does not show, and the names its expansion shows one
// element below its own (by their first elements, so that no two of them
// can merge). Their number less one estimates the nodes the expansion
// adds; it is no bound: a member whose name is too short to show one can
// absorb the others, and a finer name can join a child node of a shorter
// name.
func (f *fitter) candidateOf(v *View, nd *Node) candidate {
	t, s := v.Tree, v.state
	ix := s.index(t)
	d := ix.depth[nd.name] + 1 // the depth of the names one element below nd's
	var c candidate
	finer := map[int32]bool{}
	for _, m := range nd.Members {
		fr, self := t.Frame[m], t.Self[v.Value][m]
		c.kept = c.kept || f.kept[fr]
		if ix.levels(fr) >= d {
			finer[ix.cname(fr, d)] = true
		}
		c.open = c.open || s.Level(m) < ix.levels(fr)
		if s.Level(m) < ix.levels(fr) || t.Name(m) != nd.Name {
			c.hidden += max(self, -self) // not shown with its own name
		}
	}
	c.names = len(finer)
	if c.names == 0 { // no member can show a finer name: nothing to expand
		c.hidden, c.open = 0, false
	}
	return c
}

// keptFrames marks the frames of t whose full names match keep.
func keptFrames(t *analysis.Tree, keep *regexp.Regexp) []bool {
	m := make([]bool, len(t.Profile.Frames))
	for i := range m {
		m[i] = keep != nil && keep.MatchString(t.Profile.Frames[i].Name)
	}
	return m
}

// Named returns the self weight that v shows with its own name: the self
// of every member whose full name is its compacted node's name (the
// samples whose leaf function the view names). Time is linear in the tree.
func (v *View) Named() int64 {
	var sum int64
	for _, nd := range v.Nodes {
		for _, m := range nd.Members {
			if v.Tree.Name(m) == nd.Name {
				sum += v.Tree.Self[v.Value][m]
			}
		}
	}
	return sum
}
