package commands

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var sandwichCommand = &kernel.Command{
	Name:    "sandwich",
	Summary: "The callers and callees of one compacted node or function, merged over every place it occurs.",
	Doc: "speedscope's sandwich and pprof's `peek`: the picture draws the target's callers growing upwards from " +
		"its row and its callees below it; the table lists its immediate callers and callees with their " +
		"shares of it (share) and of the profile's total before filters, the total of every command's " +
		"percentages (profile%). TARGET is a compacted name of the current view (every node of that name counts), a " +
		"handle or a path of names (that node's name counts), or a function's full name, which is then read " +
		"at full names; each name also by a unique end of it (`sandwich prepare` for `wrappers.js prepare:4:35`), " +
		"or by `re=REGEX`. When several names match, the error lists them with their handles. On a call path that passes through the target more than once, its outermost place " +
		"counts: recursion is counted once per stack, as pprof's cum is, and inner places show among the callees. " +
		"Without TARGET, the compacted name with the most self weight is the target.",
	Args: []kernel.Arg{{Name: "TARGET", Kind: kernel.KindTarget, Complete: completeTarget, Optional: true,
		Doc: "a compacted name, a handle, a path of names, or a function's name, each also by a unique end of it (default: the heaviest in self)"}},
	Options:  []kernel.Option{reOpt, {Name: "n", Doc: "callers and callees listed, each (0 for all)", Default: "10", Kind: kernel.KindNumber}, maxNodesOpt},
	Examples: []string{"load demo:profvis-toy as toy", "sandwich lib2", "sandwich toy lib2.Nerve.transmit n=3", "sandwich Signal.travel", "level 2", "sandwich lib2.Muscle hide=Lung"},
	Profiles: 1,
	Tree:     true,
	Run:      runSandwich,
}

func runSandwich(c *kernel.Call) error {
	v, name, note, err := sandwichTarget(c, c.Arg(0))
	if err != nil {
		return err
	}
	s, err := compaction.NewSandwich(v, name)
	if err != nil {
		return err
	}
	n, err := c.Int("n")
	if err != nil || n < 0 {
		return c.Usagef("n=%s: write a number of rows, 0 for all", c.Opt("n"))
	}
	sandwichTable(c, v.Unit().Unit, s, n, note)
	max, err := c.Int("maxnodes")
	if err != nil || max < 2 {
		return c.Usagef("maxnodes=%s: draw at least 2 nodes", c.Opt("maxnodes"))
	}
	pic, err := plotting.Draw(s.Callees, plotting.Options{Layout: plotting.LayoutSandwich, Callers: s.Callers,
		Profile: c.Profile().Name, MaxNodes: max, More: maxNodesOpt.Name + "=N draws more", Total: wholeOf(c.Tree(), c.Value()).Total})
	if err != nil {
		return fmt.Errorf("sandwich %s: %w", c.Profile().Name, err)
	}
	c.Profile().SetPicture(pic.SVG, nil)
	c.Picture(pic.SVG, fmt.Sprintf("%s: sandwich of %s, callers above and callees below", c.Subject(), s.Name))
	return nil
}

// sandwichTarget finds the view and the name a TARGET (or re=) stands
// for: a compacted name of the call's view, or the name of the node a
// handle or path resolves to (findTarget), else a function's name in the
// view at full names; note says which when it is not plain.
func sandwichTarget(c *kernel.Call, target string) (v *compaction.View, name, note string, err error) {
	if v, err = c.View(); err != nil {
		return nil, "", "", err
	}
	if target == "" && !c.Has("re") {
		return v, heaviestSelf(v), "the compacted name with the most self weight", nil
	}
	f, err := find(c, v, target)
	if err == nil && f.All {
		return nil, "", "", c.Usagef("sandwich all: give one compacted node or function")
	}
	if err == nil {
		if f.Name != target {
			note = fmt.Sprintf("%s is %s", cmp.Or(target, "re="+c.Opt("re")), f.Name)
		}
		return v, f.Name, note, nil
	}
	var te *compaction.TargetError
	if !errors.As(err, &te) || len(te.Names) > 0 {
		return nil, "", "", findTargetError(c, "", err) // a bad re=, or several names: say which
	}
	t := c.Tree()
	full, err := compaction.CompactContext(c.Ctx, t, compaction.NewState(t, kernel.FullLevel), c.Value())
	if err != nil {
		return nil, "", "", err
	}
	if f, err = findTarget(c, full, target); err != nil {
		return nil, "", "", err
	}
	return full, f.Name, "a function: read at full names", nil
}

// heaviestSelf returns the compacted name of v with the most self weight,
// summed over its nodes (ties: the first by name).
func heaviestSelf(v *compaction.View) string {
	self := map[string]int64{}
	best := ""
	for _, i := range v.Preorder() {
		n := v.Nodes[i]
		self[n.Name] += n.Self
	}
	for name, x := range self {
		if best == "" || x > self[best] || x == self[best] && name < best {
			best = name
		}
	}
	return best
}

// sandwichTable lists the target, then its immediate callers and callees
// (at most n each), with their weight, its share of the target and of the
// profile.
func sandwichTable(c *kernel.Call, unit string, s *compaction.Sandwich, n int, note string) {
	target, w := s.Callees.Nodes[0], wholeOf(c.Tree(), c.Value())
	t := &kernel.Table{Columns: []string{"role", "name", "total", "share", "profile%", "self"}}
	t.Rows = append(t.Rows, []any{"target", target.Name, kernel.ValueCell(target.Total, unit), kernel.PercentCell(target.Total, target.Total),
		kernel.PercentCell(target.Total, w.Total), kernel.ValueCell(target.Self, unit)})
	for _, half := range []struct {
		role string
		v    *compaction.View
	}{{"caller", s.Callers}, {"callee", s.Callees}} {
		kids := half.v.Nodes[0].Children
		if n > 0 && len(kids) > n {
			kids = kids[:n]
		}
		for _, k := range kids {
			nd := half.v.Nodes[k]
			var self any // a caller's self would be the paths that start there: not its own weight
			if half.role == "callee" {
				self = kernel.ValueCell(nd.Self, unit)
			}
			t.Rows = append(t.Rows, []any{half.role, nd.Name, kernel.ValueCell(nd.Total, unit), kernel.PercentCell(nd.Total, target.Total),
				kernel.PercentCell(nd.Total, w.Total), self})
		}
	}
	t.Note = fmt.Sprintf("%s: sandwich of %s over %d places (%d outermost on their call paths); %d callers, %d callees",
		c.Subject(), s.Name, len(s.Places), s.Outer, len(s.Callers.Nodes[0].Children), len(s.Callees.Nodes[0].Children))
	if note != "" {
		t.Note += "; " + note
	}
	t.Note += "; share is of the target's total, profile% " + w.Which()
	c.Table(t)
}
