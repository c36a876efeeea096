package kernel

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// The tree options mean the same in every command that reads a call tree
// (Command.Tree), as they do in pprof. focus, ignore, hide, thread,
// process, tagfocus and tagignore filter the tree on top of the profile's
// standing filter (the filter command).
var (
	focusOpt     = Option{Name: "focus", Kind: KindRegexp, Doc: "keep only samples with a frame matching this regular expression (name or file)"}
	ignoreOpt    = Option{Name: "ignore", Kind: KindRegexp, Doc: "drop samples with a frame matching this regular expression"}
	hideOpt      = Option{Name: "hide", Kind: KindRegexp, Doc: "remove frames matching this regular expression from the stacks"}
	threadOpt    = Option{Name: "thread", Kind: KindRegexp, Doc: "keep only samples of the thread with this id, or of the threads whose name matches this regular expression (see threads)", Complete: completeThread}
	processOpt   = Option{Name: "process", Kind: KindRegexp, Doc: "keep only samples of the process with this id, or of the processes whose name matches this regular expression (see threads)"}
	tagfocusOpt  = Option{Name: "tagfocus", Doc: "keep only samples whose labels match, as pprof's -tagfocus: KEY=RE, RE (on key:value), or KEY=RANGE for numeric labels (1kb:4mb, :10ms)"}
	tagignoreOpt = Option{Name: "tagignore", Doc: "drop samples whose labels match, as pprof's -tagignore (same forms as tagfocus)"}
	ValueOption  = Option{Name: "value", Kind: KindValue, Doc: "value type (default: the profile's)", Complete: completeValue}

	// FilterOptions are the options of a filter: a call's own, or the
	// profile's standing one.
	FilterOptions = []Option{focusOpt, ignoreOpt, hideOpt, threadOpt, processOpt, tagfocusOpt, tagignoreOpt}
	treeOptions   = append(FilterOptions[:len(FilterOptions):len(FilterOptions)], ValueOption, GranularityOption)
)

// ReadFilter reads the call's filter options that it has (all of them for
// a command that reads a tree).
func (c *Call) ReadFilter() (analysis.Filter, error) {
	var f analysis.Filter
	for _, o := range []struct {
		name string
		dst  **regexp.Regexp
	}{{"focus", &f.Focus}, {"ignore", &f.Ignore}, {"hide", &f.Hide}, {"thread", &f.Thread}, {"process", &f.Process}} {
		var err error
		if *o.dst, err = c.Regexp(o.name); err != nil {
			return f, err
		}
	}
	for _, o := range []struct {
		name string
		dst  **analysis.TagFilter
	}{{"tagfocus", &f.TagFocus}, {"tagignore", &f.TagIgnore}} {
		tf, err := analysis.ParseTagFilter(c.Opt(o.name))
		if err != nil {
			return f, c.Usagef("%s=%s: %v: write e.g. %s=key=value, %s=bytes=1kb:4mb", o.name, c.Opt(o.name), errors.Unwrap(err), o.name, o.name)
		}
		*o.dst = tf
	}
	return f, nil
}

// completeThread proposes the names of the call's profile's threads.
func completeThread(c *Call, prefix string) []string {
	var out []string
	for _, t := range c.Profile().Profile.Threads() {
		out = append(out, regexp.QuoteMeta(t.Name))
	}
	return out
}

// ReadValue resolves the value= option against l's value types; empty
// means the profile's current value type.
func (c *Call) ReadValue(l *Loaded) (int, error) {
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

// Filters lists the filters the call reads the tree under, in order: the
// profile's standing filter, then the call's own; each as its options.
func (c *Call) Filters() []map[string]string {
	out := []map[string]string{}
	for _, f := range []analysis.Filter{c.Profile().filter, c.filter} {
		if f.IsZero() {
			continue
		}
		m := map[string]string{}
		for _, o := range f.Options() {
			m[o[0]] = o[1]
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
	if !l.filter.IsZero() {
		parts = append(parts, "filter "+l.filter.String())
	}
	if !l.recursion.IsZero() {
		parts = append(parts, "collapse-recursion "+l.recursion.String())
	}
	if !c.filter.IsZero() {
		parts = append(parts, c.filter.String())
	}
	if c.grain != l.granularity() {
		parts = append(parts, "granularity="+c.grain.String())
	}
	if len(parts) == 0 {
		return l.Name
	}
	return l.Name + " (" + strings.Join(parts, "; ") + ")"
}

// Tree returns the call tree the call reads: its profile's tree at the
// call's granularity (under the standing filter) under the call's own
// focus, ignore and hide.
func (c *Call) Tree() *analysis.Tree {
	if c.tree == nil { // a call not run by the interpreter (completion, live)
		if c.filterTree() != nil {
			c.tree = c.Profile().tree // its context ended: the profile's own
		}
	}
	return c.tree
}

// filterTree makes the call's tree at its granularity and under its own
// filter, before the command runs, so that an interrupt stops the work.
func (c *Call) filterTree() error {
	if len(c.Profiles) == 0 {
		return nil
	}
	ctx := c.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	l := c.Profile()
	t, err := l.TreeAt(ctx, c.grain)
	if err != nil || c.filter.IsZero() {
		c.tree = t
		return err
	}
	f, err := analysis.NewTreeContext(ctx, t.Profile.Filter(c.filter))
	if err != nil {
		return err
	}
	c.tree = l.named(f)
	return nil
}

// Filter returns the call's own filter (focus, ignore, hide...), on top of
// the profile's standing one.
func (c *Call) Filter() analysis.Filter { return c.filter }

// Value returns the value type index the call reads.
func (c *Call) Value() int { return c.value }

// View returns the compacted tree the call reads: the profile's
// granularity state carried to Tree, compacted by the call's value type.
// Without a filter or value of its own, it is the profile's cached view.
// An interrupt while it is computed returns the context's error.
func (c *Call) View() (*compaction.View, error) {
	if c.view != nil {
		return c.view, nil
	}
	l, t := c.Profile(), c.Tree()
	var err error
	switch {
	case c.Cmd.FullNames && l.state == nil:
		c.view, err = fullView(c.Ctx, l, t, c.value)
	case t == l.tree && c.value == l.Value:
		c.view, err = l.CompactedView(c.Ctx)
	case t == l.tree:
		c.view, err = compaction.CompactContext(c.Ctx, t, l.Granularity(), c.value)
	default:
		q := l.Profile
		if c.grain != q.Granularity {
			q = q.At(c.grain) // the profile TreeAt read
		}
		s := carryStateAt(l.Profile, l.tree, l.Granularity(), q, t)
		c.view, err = compaction.CompactContext(c.Ctx, t, s, c.value)
	}
	return c.view, err
}

// FullLevel is a level beyond every name's length: full names.
const FullLevel = 1 << 20

// fullView returns the compacted tree of t (l's tree, or l's under a
// call's own filter) with every node at its full name, in value type v:
// what a FullNames command reads until the user sets a level on l. l's own
// is cached.
func fullView(ctx context.Context, l *Loaded, t *analysis.Tree, v int) (*compaction.View, error) {
	if t != l.tree || v != l.Value {
		return compaction.CompactContext(ctx, t, compaction.NewState(t, FullLevel), v)
	}
	if l.full == nil || l.full.Tree != t || l.full.Value != v {
		full, err := compaction.CompactContext(ctx, t, compaction.NewState(t, FullLevel), v)
		if err != nil {
			return nil, err
		}
		l.full = full
	}
	return l.full, nil
}

// carryState returns a state of to in which each node keeps the level s
// gives its counterpart in from. from and to are call trees of p under two
// filters (or of p itself), so their stacks are subsequences of p's, stack
// for stack: a node's counterpart is the node of from at the same place of
// the same stack of p, else the nearest ancestor from has there. A node
// with no counterpart (from dropped its samples) takes its parent's level,
// a root level 1. Time is linear in the total length of p's stacks.
func carryState(p *analysis.Profile, from *analysis.Tree, s *compaction.State, to *analysis.Tree) *compaction.State {
	return carryStateAt(p, from, s, p, to)
}

// carryStateAt is carryState from a tree of p to a tree of q, a profile
// whose stacks are p's at another granularity (analysis.Profile.At): stack
// for stack and place for place, one frame of q stands for one of p.
func carryStateAt(p *analysis.Profile, from *analysis.Tree, s *compaction.State, q *analysis.Profile, to *analysis.Tree) *compaction.State {
	levels := make([]int32, to.Len())
	var a, b []int32
	for id, st := range p.Stacks.All() {
		a, b = pathOf(from, from.StackNode[id], a), pathOf(to, to.StackNode[id], b)
		qt := q.Stacks.At(id)
		cur, i, j := int32(-1), 0, 0
		for k, fr := range st {
			if i < len(a) && from.Frame[a[i]] == fr {
				cur, i = a[i], i+1
			}
			if j < len(b) && to.Frame[b[j]] == qt[k] {
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
