package kernel

import (
	"regexp"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// The tree options mean the same in every command that reads a call tree
// (Command.Tree), as they do in pprof. focus, ignore and hide filter the
// tree on top of the profile's standing filter (the filter command).
var (
	focusOpt  = Option{Name: "focus", Kind: KindRegexp, Doc: "keep only samples with a frame matching this regular expression (name or file)"}
	ignoreOpt = Option{Name: "ignore", Kind: KindRegexp, Doc: "drop samples with a frame matching this regular expression"}
	hideOpt   = Option{Name: "hide", Kind: KindRegexp, Doc: "remove frames matching this regular expression from the stacks"}
	valueOpt  = Option{Name: "value", Kind: KindValue, Doc: "value type (default: the profile's)", Complete: completeValue}

	treeOptions = []Option{focusOpt, ignoreOpt, hideOpt, valueOpt}
)

// readFilter reads the call's focus, ignore and hide.
func (c *Call) readFilter() (analysis.Filter, error) {
	var f analysis.Filter
	var err error
	if f.Focus, err = c.Regexp("focus"); err != nil {
		return f, err
	}
	if f.Ignore, err = c.Regexp("ignore"); err != nil {
		return f, err
	}
	f.Hide, err = c.Regexp("hide")
	return f, err
}

// readValue resolves the value= option against l's value types; empty
// means the profile's current value type.
func (c *Call) readValue(l *Loaded) (int, error) {
	name := c.Opt("value")
	if name == "" {
		return l.Value, nil
	}
	if v := l.Profile.ValueIndex(name); v >= 0 {
		return v, nil
	}
	return 0, c.Usagef("value=%s: %s has no such value type; it has %s", name, l.Name, strings.Join(valueTypes(l), ", "))
}

// valueTypes lists the names of l's value types.
func valueTypes(l *Loaded) []string {
	var out []string
	for _, vt := range l.Profile.ValueTypes {
		out = append(out, vt.Type)
	}
	return out
}

// completeValue proposes the value types of the call's profile.
func completeValue(c *Call, prefix string) []string { return valueTypes(c.Profile()) }

// filters lists the filters the call reads the tree under, in order: the
// profile's standing filter, then the call's own; each as its options.
func (c *Call) filters() []map[string]string {
	out := []map[string]string{}
	for _, f := range []analysis.Filter{c.Profile().Filter, c.filter} {
		if f.IsZero() {
			continue
		}
		m := map[string]string{}
		for name, re := range map[string]*regexp.Regexp{"focus": f.Focus, "ignore": f.Ignore, "hide": f.Hide} {
			if re != nil {
				m[name] = re.String()
			}
		}
		out = append(out, m)
	}
	return out
}

// Subject names what the call reads: its profile's name, followed by the
// filters it is read under, if any ("fib (filter focus=big; hide=^runtime)").
func (c *Call) Subject() string {
	l := c.Profile()
	var parts []string
	if !l.Filter.IsZero() {
		parts = append(parts, "filter "+l.Filter.String())
	}
	if !l.Recursion.IsZero() {
		parts = append(parts, "collapse-recursion "+l.Recursion.String())
	}
	if !c.filter.IsZero() {
		parts = append(parts, c.filter.String())
	}
	if len(parts) == 0 {
		return l.Name
	}
	return l.Name + " (" + strings.Join(parts, "; ") + ")"
}

// Tree returns the call tree the call reads: its profile's tree (under the
// standing filter) under the call's own focus, ignore and hide.
func (c *Call) Tree() *analysis.Tree {
	if c.tree == nil {
		l := c.Profile()
		c.tree = l.Tree
		if !c.filter.IsZero() {
			c.tree = withMapping(l, analysis.NewTree(l.Tree.Profile.Filter(c.filter)))
		}
	}
	return c.tree
}

// Value returns the value type index the call reads.
func (c *Call) Value() int { return c.value }

// View returns the compacted tree the call reads: the profile's
// granularity state carried to Tree, compacted by the call's value type.
// Without a filter or value of its own, it is the profile's cached view.
func (c *Call) View() *compaction.View {
	if c.view != nil {
		return c.view
	}
	l, t := c.Profile(), c.Tree()
	switch {
	case t == l.Tree && c.value == l.Value:
		c.view = CompactedView(l)
	case t == l.Tree:
		c.view = compaction.Compact(t, profileState(l), c.value)
	default:
		c.view = compaction.Compact(t, carryState(l.Tree.Profile, l.Tree, profileState(l), t), c.value)
	}
	return c.view
}

// setFilter makes f the standing filter of l: its tree is rebuilt, and its
// granularity state carried over to the new tree.
func setFilter(l *Loaded, f analysis.Filter) { setTree(l, f, l.Recursion) }

// setTree gives l the tree of its profile under the standing filter f with
// the recursion r folded out (named by its mapping, if any), carrying its
// granularity state over to the new tree.
func setTree(l *Loaded, f analysis.Filter, r analysis.Recursion) {
	t := withMapping(l, analysis.NewTree(l.Profile.Filter(f).CollapseRecursion(r)))
	l.State = carryState(l.Profile, l.Tree, profileState(l), t)
	l.Filter, l.Recursion, l.Tree, l.View, l.Drawn = f, r, t, nil, nil
}

// profileState returns l's granularity state, making the initial one
// (level 1 everywhere, as ProfVis starts) when there is none.
func profileState(l *Loaded) *compaction.State {
	if l.State == nil {
		l.State = compaction.NewState(l.Tree, 1)
	}
	return l.State
}

// carryState returns a state of to in which each node keeps the level s
// gives its counterpart in from. from and to are call trees of p under two
// filters (or of p itself), so their stacks are subsequences of p's, stack
// for stack: a node's counterpart is the node of from at the same place of
// the same stack of p, else the nearest ancestor from has there. A node
// with no counterpart (from dropped its samples) takes its parent's level,
// a root level 1. Time is linear in the total length of p's stacks.
func carryState(p *analysis.Profile, from *analysis.Tree, s *compaction.State, to *analysis.Tree) *compaction.State {
	levels := make([]int32, to.Len())
	var a, b []int32
	for id, st := range p.Stacks.All() {
		a, b = pathOf(from, from.StackNode[id], a), pathOf(to, to.StackNode[id], b)
		cur, i, j := int32(-1), 0, 0
		for _, fr := range st {
			if i < len(a) && from.Frame[a[i]] == fr {
				cur, i = a[i], i+1
			}
			if j < len(b) && to.Frame[b[j]] == fr {
				if levels[b[j]] == 0 && cur >= 0 {
					levels[b[j]] = s.Level(cur)
				}
				j++
			}
		}
	}
	for n, g := range levels { // parents come first in pre-order
		if g == 0 {
			levels[n] = 1
			if pa := to.Parent[n]; pa >= 0 {
				levels[n] = levels[pa]
			}
		}
	}
	return compaction.NewStateOf(to, levels)
}

// pathOf returns the nodes from a root of t down to n (none for n < 0),
// reusing buf.
func pathOf(t *analysis.Tree, n int32, buf []int32) []int32 {
	buf = buf[:0]
	for ; n >= 0; n = t.Parent[n] {
		buf = append(buf, n)
	}
	slices.Reverse(buf)
	return buf
}
