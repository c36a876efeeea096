package commands

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var diffCommand = &kernel.Command{
	Name:    "diff",
	Summary: "Compare two profiles, or two phases of one, per compacted node: a table and a differential icicle.",
	Doc: "The difference NEW − BASE is made as `go tool pprof -diff_base=BASE NEW` makes it (functions " +
		"matched by name, so the profiles may be of other formats), and read under one granularity state: " +
		"NEW's levels (BASE's when only BASE has had levels set), else full names; a call path the other side lacks takes its " +
		"parent's level. The table gives the change of total and of self, absolute and relative to BASE: " +
		"by default (`by=function`) one row per name of the view (a function at full names) summed over every " +
		"place it occurs, its total counted once where it calls itself; `by=self` and `by=total` give one row per " +
		"compacted node, named by its place (its call path, shortened to what tells it apart), ranked by the change " +
		"of self or of total; `by=tree` lists the nodes in tree order. The icicle's widths are BASE + NEW; red is growth, blue shrinkage, grey no change. " +
		"`normalize=true` scales BASE to NEW's total first. `phase=A phase=B` compares the samples of two " +
		"phases of one recording (from its last `phases` run, or the default one). `as D` keeps the " +
		"difference as a profile whose values may be negative: `top D` is pprof's `-diff_base` top, and " +
		"D's value types T.base, T.new and T.both give the sides.",
	Options: []kernel.Option{
		{Name: "normalize", Doc: "scale BASE to NEW's total", Default: "false", Values: []string{"true", "false"}},
		{Name: "phase", Doc: "a phase id; give two (phase=A phase=B) to compare phase A (BASE) with phase B (NEW) of one profile", Kind: kernel.KindNumber, Repeat: true},
		{Name: "by", Doc: "rows per name summed over its places (function), per place by the largest change of self or of total (those three leave out what did not change), or per place in tree order (every node)", Default: "function", Values: []string{"function", "self", "total", "tree"}},
		{Name: "n", Doc: "rows to show (0 for all)", Default: "20", Kind: kernel.KindNumber},
		maxNodesOpt,
	},
	Examples: []string{"load demo:profvis-toy as a", "load demo:profvis-toy as b", "diff a b normalize=true",
		"diff a b as d by=tree hide=^lib1", "top d", "load demo:phasedemo as run", "diff run phase=1 phase=2 n=5"},
	Profiles: 2,
	Within:   "phase",
	Tree:     true,
	AllowAs:  true,
	Run:      runDiff,
}

func runDiff(c *kernel.Call) error {
	base, new := c.Profiles[0], c.Profiles[1]
	bs, ns, err := diffSides(c)
	if err != nil {
		return err
	}
	if ns.Value, err = c.ReadValue(new); err != nil {
		return err
	}
	normalize, err := c.Bool("normalize")
	if err != nil {
		return err
	}
	p, err := analysis.Compare(bs, ns, normalize)
	if err != nil {
		return fmt.Errorf("diff %s %s: %w", base.Name, new.Name, err)
	}
	d := kernel.NewLoaded(c.As, p, nil)
	d.SetFilter(c.Filter())
	d.Value = analysis.DiffChange
	d.SetState(diffState(d.Tree(), new, base), nil)
	what := diffWhat(c, base, new, normalize)
	if !strings.HasPrefix(what, "diff:") {
		d.DiffBase = base.Profile.Source
	} else {
		p.Source = what
	}
	v := compaction.Compact(d.Tree(), d.State(), analysis.DiffBoth)
	if err := diffTable(c, v, diffLabel(c)+strings.TrimPrefix(c.Subject(), base.Name)); err != nil {
		return err
	}
	if err := diffPicture(c, d, v); err != nil {
		return err
	}
	if c.As != "" {
		c.Session.Add(d)
	}
	return nil
}

// diffSides returns the two sides: the profiles under their standing
// filters, or two phases of one.
func diffSides(c *kernel.Call) (base, new analysis.Side, err error) {
	var sides [2]*analysis.Tree
	for i, l := range c.Profiles {
		if sides[i], err = l.TreeAt(c.Ctx, c.Granularity()); err != nil {
			return base, new, err
		}
	}
	base = analysis.Side{Profile: sides[0].Profile, Value: c.Value()}
	new = analysis.Side{Profile: sides[1].Profile}
	if !c.Within() {
		if c.Profiles[0] == c.Profiles[1] {
			return base, new, c.Usagef("%s compared with itself is nothing: name two profiles, or two phases (phase=A phase=B)", c.Profiles[0].Name)
		}
		return base, new, nil
	}
	ids := c.All("phase")
	if len(ids) != 2 {
		return base, new, c.Usagef("phase= is given %d times: give two, phase=A (BASE) and phase=B (NEW)", len(ids))
	}
	st, err := lastPhases(c)
	if err != nil {
		return base, new, err
	}
	phasesKey.Set(c.Profile(), st)
	if base.Ranges, err = phaseRanges(c, st, ids[0]); err != nil {
		return base, new, err
	}
	new.Ranges, err = phaseRanges(c, st, ids[1])
	return base, new, err
}

// phaseRanges returns the sample ranges of the intervals of phase id.
func phaseRanges(c *kernel.Call, st *PhaseState, id string) ([][2]int, error) {
	n, err := strconv.Atoi(id)
	ph := st.Result.Phase(n)
	if err != nil || ph == nil || ph.Intervals == 0 {
		var ids []string
		for _, ph := range st.Result.Phases {
			if ph.Intervals > 0 {
				ids = append(ids, strconv.Itoa(ph.ID))
			}
		}
		return nil, c.Usagef("phase=%s: %s has no such phase in its last phases run; it has %s", id, c.Profile().Name, strings.Join(ids, ", "))
	}
	p, v := c.Profile().Tree().Profile, st.Vectors
	var out [][2]int
	for i, of := range st.Result.Of {
		if int(of) != n {
			continue
		}
		lo, hi := intervalSamples(p, v.Series, v.Intervals[i].Start, v.Intervals[i].End)
		if k := len(out); k > 0 && out[k-1][1] == lo {
			out[k-1][1] = hi
		} else if hi > lo {
			out = append(out, [2]int{lo, hi})
		}
	}
	return out, nil
}

// intervalSamples returns the samples of one interval: profiles start to
// end of a series, else the samples timed in [start, end).
func intervalSamples(p *analysis.Profile, series bool, start, end int64) (lo, hi int) {
	if series {
		lo, hi = p.Intervals[start], len(p.Samples)
		if int(end) < len(p.Intervals) {
			hi = p.Intervals[end]
		}
		return lo, hi
	}
	at := func(t int64) int {
		return sort.Search(len(p.Samples), func(i int) bool { return p.Samples[i].Time >= t })
	}
	return at(start), at(end)
}

// diffLabel names the comparison: "a → b", or "run phase 2 → phase 5".
func diffLabel(c *kernel.Call) string {
	if c.Within() {
		ids := c.All("phase")
		return fmt.Sprintf("%s phase %s → phase %s", c.Profile().Name, ids[0], ids[1])
	}
	return c.Profiles[0].Name + " → " + c.Profiles[1].Name
}

// diffWhat says what was compared. A difference that go tool pprof
// -diff_base makes from the files (whole profiles, no standing filters, no
// normalize) is named by NEW's file; any other starts with "diff:".
func diffWhat(c *kernel.Call, base, new *kernel.Loaded, normalize bool) string {
	s := diffLabel(c)
	switch {
	case c.Within():
		return "diff:" + s
	case normalize:
		return "diff:" + s + " (BASE normalized to NEW's total)"
	case !base.Filter().IsZero() || !new.Filter().IsZero() || strings.HasPrefix(base.Profile.Source, "demo:"):
		return "diff:" + s
	}
	return new.Profile.Source
}

// diffState carries one side's granularity state to the difference's tree
// t: NEW's when the user has set one, else BASE's, else full names (what
// top, tree and flame read until a level is set). A node takes the level of
// the node with the same path of names on that side, else its parent's (1
// for a root, as a filtered tree's carried state gives it).
func diffState(t *analysis.Tree, new, base *kernel.Loaded) *compaction.State {
	levels := make([]int32, t.Len())
	side := new
	if side.State() == nil {
		side = base
	}
	if side.State() == nil {
		return compaction.NewState(t, kernel.FullLevel)
	}
	match := matchPaths(t, side.Tree())
	for n := range levels {
		switch {
		case match[n] >= 0:
			levels[n] = side.State().Level(match[n])
		case t.Parent[n] >= 0:
			levels[n] = levels[t.Parent[n]]
		default:
			levels[n] = 1
		}
	}
	return compaction.NewStateOf(t, levels)
}

// matchPaths returns, per node of t, the first node of u (by id) with the
// same path of frame names from a root, or -1.
func matchPaths(t, u *analysis.Tree) []int32 {
	type key struct {
		parent int32
		name   string
	}
	child := make(map[key]int32, u.Len())
	for n := int32(u.Len()) - 1; n >= 0; n-- { // the smallest id wins
		child[key{u.Parent[n], u.Name(n)}] = n
	}
	out := make([]int32, t.Len())
	for n := range out {
		up := int32(-1)
		if pa := t.Parent[n]; pa >= 0 {
			if up = out[pa]; up < 0 {
				out[n] = -1
				continue
			}
		}
		m, ok := child[key{up, t.Name(int32(n))}]
		out[n] = m
		if !ok {
			out[n] = -1
		}
	}
	return out
}

// diffRow is one compacted node of a difference (node ≥ 0), or one name
// summed over its places (node -1), with its change.
type diffRow struct {
	node               int32
	name               string
	places             int
	base, new          int64
	baseSelf, newSelf  int64
	change, selfChange int64
}

// diffTable shows the rows the call asks for.
func diffTable(c *kernel.Call, v *compaction.View, what string) error {
	n, err := c.Int("n")
	if err != nil || n < 0 {
		return c.Usagef("n=%s: write a number of rows, 0 for all", c.Opt("n"))
	}
	by := c.Opt("by")
	rows, base, new := diffRows(v, by)
	all, unit := len(rows), "compacted nodes"
	if by == "function" {
		unit = "names"
	}
	unchanged := ""
	if by != "tree" { // what did not change says nothing in a ranking
		rows = slices.DeleteFunc(rows, func(r diffRow) bool { return r.change == 0 && r.selfChange == 0 })
		if k := all - len(rows); k > 0 {
			unchanged = fmt.Sprintf("; %d unchanged not listed (by=tree lists every node)", k)
		}
	}
	shown := len(rows)
	if n > 0 {
		shown = min(n, shown)
	}
	vt := v.Tree.Profile.ValueTypes[analysis.DiffChange]
	last := "handle"
	if by == "function" {
		last = "places"
	}
	t := &kernel.Table{Columns: []string{"change", "change%", "base", "new", "self change", "self change%", "name", last},
		Note: fmt.Sprintf("%s: %s; BASE %s → NEW %s (%s); %d of %d %s, by %s%s",
			what, v.Counts(), analysis.FormatValue(base, vt.Unit), analysis.FormatValue(new, vt.Unit),
			relativeText(base, new), shown, all, unit, diffOrder[by], unchanged)}
	for _, r := range rows[:shown] {
		var id any = r.places
		if r.node >= 0 {
			id = v.Handle(r.node)
		}
		t.Rows = append(t.Rows, []any{signedCell(r.change, vt.Unit), relativeCell(r.base, r.new), kernel.ValueCell(r.base, vt.Unit),
			kernel.ValueCell(r.new, vt.Unit), signedCell(r.selfChange, vt.Unit), relativeCell(r.baseSelf, r.newSelf), r.name, id})
	}
	c.Table(t)
	return nil
}

var diffOrder = map[string]string{
	"function": "the largest change of self, each name summed over its places",
	"self":     "the largest change of self", "total": "the largest change of total", "tree": "tree order",
}

// diffRows computes every node's change, or every name's (by=function),
// and orders the rows: by |change of self| then of total (or of total,
// then of self), then name and handle; or in pre-order. It also returns
// the totals of BASE and NEW.
func diffRows(v *compaction.View, by string) (rows []diffRow, base, new int64) {
	bt, bs := v.Totals(analysis.DiffBase)
	nt, ns := v.Totals(analysis.DiffNew)
	for _, r := range v.Roots {
		base, new = base+bt[r], new+nt[r]
	}
	places := placeNames(v)
	for _, i := range v.Preorder() {
		name := places[i]
		if by == "tree" {
			name = strings.Repeat("  ", v.Depth(i)) + v.Nodes[i].Name
		}
		rows = append(rows, diffRow{node: i, name: name, places: 1, base: bt[i], new: nt[i], baseSelf: bs[i], newSelf: ns[i],
			change: nt[i] - bt[i], selfChange: ns[i] - bs[i]})
	}
	if by == "function" {
		rows = perName(v, rows)
	}
	self := func(r diffRow) int64 { return max(r.selfChange, -r.selfChange) }
	total := func(r diffRow) int64 { return max(r.change, -r.change) }
	key, then := self, total
	if by == "total" {
		key, then = total, self
	}
	if by != "tree" {
		handle := func(r diffRow) string {
			if r.node < 0 {
				return ""
			}
			return v.Handle(r.node)
		}
		slices.SortStableFunc(rows, func(a, b diffRow) int {
			return cmp.Or(cmp.Compare(key(b), key(a)), cmp.Compare(then(b), then(a)), strings.Compare(a.name, b.name),
				strings.Compare(handle(a), handle(b)))
		})
	}
	return rows, base, new
}

// perName sums the rows of the nodes of v (in pre-order) per name: selves
// over every place, totals over the places with no ancestor of the same
// name (so that a name calling itself counts once).
func perName(v *compaction.View, rows []diffRow) []diffRow {
	at := map[string]int{}
	var out []diffRow
	for _, r := range rows {
		name := v.Nodes[r.node].Name
		k, ok := at[name]
		if !ok {
			k, at[name] = len(out), len(out)
			out = append(out, diffRow{node: -1, name: name})
		}
		o := &out[k]
		o.places++
		o.baseSelf, o.newSelf, o.selfChange = o.baseSelf+r.baseSelf, o.newSelf+r.newSelf, o.selfChange+r.selfChange
		if !underSameName(v, r.node) {
			o.base, o.new, o.change = o.base+r.base, o.new+r.new, o.change+r.change
		}
	}
	return out
}

// underSameName reports whether node i has an ancestor of its own name.
func underSameName(v *compaction.View, i int32) bool {
	for p := v.Parent(i); p >= 0; p = v.Parent(p) {
		if v.Nodes[p].Name == v.Nodes[i].Name {
			return true
		}
	}
	return false
}

// placeNames names every node of v by its place: its name when no other
// node has it, else the shortest tail of its call path ("caller > name",
// "… > a > caller > name") that no other node of that name shares.
func placeNames(v *compaction.View) []string {
	same := map[string][]int32{}
	for _, i := range v.Preorder() {
		same[v.Nodes[i].Name] = append(same[v.Nodes[i].Name], i)
	}
	out := make([]string, len(v.Nodes))
	for name, ids := range same {
		if len(ids) == 1 {
			out[ids[0]] = name
			continue
		}
		paths := make([][]string, len(ids))
		for k, i := range ids {
			for n := i; n >= 0; n = v.Parent(n) {
				paths[k] = append(paths[k], v.Nodes[n].Name) // from the node up
			}
		}
		for k, i := range ids {
			out[i] = shortPath(paths, k)
		}
	}
	return out
}

// shortPath returns path k of paths (each from a node up to its root) cut
// to the fewest elements that no other path ends with, root first.
func shortPath(paths [][]string, k int) string {
	p := paths[k]
	n := 2
	for ; n < len(p); n++ {
		unique := true
		for j, q := range paths {
			if j != k && len(q) >= n && slices.Equal(q[:n], p[:n]) {
				unique = false
				break
			}
		}
		if unique {
			break
		}
	}
	n = min(n, len(p))
	parts := slices.Clone(p[:n])
	slices.Reverse(parts)
	s := strings.Join(parts, " > ")
	if n < len(p) {
		s = "… > " + s
	}
	return s
}

// signedCell shows a change with its sign; its JSON is the integer.
func signedCell(x int64, unit string) kernel.Cell {
	s := analysis.FormatValue(x, unit)
	if x > 0 {
		s = "+" + s
	}
	return kernel.Cell{Text: s, Value: x}
}

// relativeCell shows the change from base to new relative to base; its
// JSON is the fraction, or null when base is zero ("new").
func relativeCell(base, new int64) kernel.Cell {
	if base == 0 {
		return kernel.Cell{Text: relativeText(base, new), Value: nil}
	}
	return kernel.Cell{Text: relativeText(base, new), Value: float64(new-base) / float64(max(base, -base))}
}

func relativeText(base, new int64) string {
	switch {
	case base == new:
		return "±0%"
	case base == 0:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(new-base)/float64(max(base, -base)))
}

// diffPicture draws the differential icicle of v.
func diffPicture(c *kernel.Call, d *kernel.Loaded, v *compaction.View) error {
	max, err := c.Int("maxnodes")
	if err != nil || max < 2 {
		return c.Usagef("maxnodes=%s: draw at least 2 nodes", c.Opt("maxnodes"))
	}
	o := plotting.Options{Layout: plotting.LayoutDiff, MaxNodes: max, More: maxNodesOpt.Name + "=N draws more", Profile: diffLabel(c)}
	if d.Name != "" {
		o.Commands = stepCommands(d.Name)
	}
	pic, err := plotting.Draw(v, o)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	d.SetPicture(pic.SVG, nil)
	c.Picture(pic.SVG, pic.Text)
	return nil
}
