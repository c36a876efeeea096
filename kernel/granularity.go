package kernel

import (
	"context"

	"github.com/proflens/proflens/analysis"
)

// GranularityOption is the tree option that chooses what a row of a report,
// or a node of a call tree, stands for: a function (the default), a source
// line, a source file or a machine address, as pprof's -functions, -lines,
// -files and -addresses. The call's tree is the profile's at that
// granularity (Loaded.TreeAt), under the standing filter and the call's
// own; its view carries the profile's levels over, node for node.
var GranularityOption = Option{Name: "granularity", Default: "functions", Values: analysis.Granularities(),
	Doc: "what a row or node stands for, as pprof's -functions, -lines, -files, -addresses (info says which the profile has)"}

// readGranularity reads the granularity= option; without it, the call
// reads the profile at its own granularity (functions, but for a
// difference made at another).
func (c *Call) readGranularity() (analysis.Granularity, error) {
	if c.Opt("granularity") == "" {
		return c.Profile().granularity(), nil
	}
	return analysis.ParseGranularity(c.Opt("granularity"))
}

// Granularity returns the granularity the call reads its tree at.
func (c *Call) Granularity() analysis.Granularity { return c.grain }

// TreeAt returns the call tree of the profile at granularity g, under the
// standing filter and folded recursion, named by the mapping: Tree at the
// profile's own granularity, else computed once and kept until the tree
// changes. When ctx ends first, it returns ctx's error and keeps nothing.
func (l *Loaded) TreeAt(ctx context.Context, g analysis.Granularity) (*analysis.Tree, error) {
	if g == l.granularity() {
		return l.tree, nil
	}
	if t := l.grained[g]; t != nil {
		return t, nil
	}
	t, err := analysis.NewTreeContext(ctx, l.Profile.At(g).Filter(l.filter).CollapseRecursion(l.recursion))
	if err != nil {
		return nil, err
	}
	l.grained[g] = l.named(t)
	return l.grained[g], nil
}

// granularity returns the granularity of the profile's frames.
func (l *Loaded) granularity() analysis.Granularity {
	if l.Profile == nil {
		return analysis.Functions
	}
	return l.Profile.Granularity
}
