package analysis

import (
	"regexp"
	"slices"
	"sort"
)

// TopOptions select and filter a flat profile. The regular expressions have
// pprof's meaning; each is matched against a frame's name and its file:
//   - Focus keeps only samples with a frame matching it;
//   - Ignore drops samples with a frame matching it (it wins over Focus);
//   - Hide removes matching frames from every stack, so their flat value
//     goes to the nearest caller that is not hidden; a sample left with no
//     frame is dropped.
//
// Unlike pprof, a frame's mapping (binary) name is not matched: the model
// does not keep mappings.
type TopOptions struct {
	Value  int // value type index
	Focus  *regexp.Regexp
	Ignore *regexp.Regexp
	Hide   *regexp.Regexp
	ByCum  bool // sort by cum instead of flat
	N      int  // rows to keep; 0 keeps all
}

// TopRow is one row of a flat profile: a function, line, file or address
// (the tree's Granularity).
type TopRow struct {
	Name  string // as pprof names the row (Profile.RowName)
	Frame int32  // the first frame of the row, for its displayed name (Names.ShowFrame)
	Flat  int64  // value of samples whose leaf frame is this function
	Cum   int64  // value of samples with this function anywhere on the stack, once per sample
}

// Top is a flat profile at the tree's granularity, as `go tool pprof -top`
// prints it with the same -functions, -lines, -files or -addresses.
type Top struct {
	Value ValueType
	Total int64 // sum of |value| over all samples, before filters (pprof's total)
	Kept  int64 // sum of flat over all rows, including those cut by N
	Rows  []TopRow
	Count int // rows before the cut to N
}

// NewTop computes the flat profile of t. A row is the frames of one row
// name (Profile.RowName: at Functions, the frames of one function name, as
// pprof groups them). Rows with zero flat and cum are
// left out; the order is pprof's: by |flat| (or |cum|) descending, then name,
// then the other value. Time is linear in the number of call-tree nodes.
func NewTop(t *Tree, o TopOptions) *Top {
	p := t.Profile
	fn, names, first := functionIDs(p)
	hidden := matchFrames(p, o.Hide)
	focus, ignore := matchFrames(p, o.Focus), matchFrames(p, o.Ignore)
	self, total := t.Self[o.Value], t.Total[o.Value]
	if o.Focus != nil || o.Ignore != nil {
		self = keptSelf(t, self, focus, ignore, o.Focus != nil)
		total = subtreeTotals(t, self)
	}
	flat, cum := accumulate(t, fn, len(names), hidden, self, total)
	top := &Top{Value: p.ValueTypes[o.Value], Total: absTotal(p, o.Value)}
	for f, name := range names {
		if flat[f] != 0 || cum[f] != 0 {
			top.Rows = append(top.Rows, TopRow{Name: name, Frame: first[f], Flat: flat[f], Cum: cum[f]})
			top.Kept += flat[f]
		}
	}
	sortTop(top.Rows, o.ByCum)
	top.Count = len(top.Rows)
	if o.N > 0 && len(top.Rows) > o.N {
		top.Rows = top.Rows[:o.N]
	}
	return top
}

// accumulate walks the tree in pre-order and returns per function its flat
// value (self of the nodes whose nearest visible ancestor-or-self is the
// function) and cum value (total of its highest visible occurrences on each
// path, so recursion counts once).
func accumulate(t *Tree, fn []int32, nf int, hidden []bool, self, total []int64) (flat, cum []int64) {
	flat, cum = make([]int64, nf), make([]int64, nf)
	onPath := make([]int32, nf)    // visible occurrences on the current path
	leaf := make([]int32, t.Len()) // nearest visible ancestor-or-self's function, -1 for none
	var path []int32
	for n := int32(0); n < int32(t.Len()); n++ {
		for len(path) > 0 && !isAncestor(t, path[len(path)-1], n) {
			top := path[len(path)-1]
			path = path[:len(path)-1]
			if !hidden[t.Frame[top]] {
				onPath[fn[t.Frame[top]]]--
			}
		}
		path = append(path, n)
		f := fn[t.Frame[n]]
		leaf[n] = -1
		if pa := t.Parent[n]; pa >= 0 {
			leaf[n] = leaf[pa]
		}
		if !hidden[t.Frame[n]] {
			leaf[n] = f
			if onPath[f] == 0 {
				cum[f] += total[n]
			}
			onPath[f]++
		}
		if leaf[n] >= 0 {
			flat[leaf[n]] += self[n]
		}
	}
	return flat, cum
}

func isAncestor(t *Tree, a, n int32) bool { return n >= a && n < a+t.Size[a] }

// functionIDs numbers the distinct row names of p's frames (RowName; at
// Functions, their names): fn[frame] is the row id, names[id] its name,
// first[id] its first frame.
func functionIDs(p *Profile) (fn []int32, names []string, first []int32) {
	fn = make([]int32, len(p.Frames))
	ids := make(map[string]int32, len(p.Frames))
	for i := range p.Frames {
		name := p.RowName(int32(i))
		id, ok := ids[name]
		if !ok {
			id = int32(len(names))
			names = append(names, name)
			first = append(first, int32(i))
			ids[name] = id
		}
		fn[i] = id
	}
	return fn, names, first
}

// matchFrames reports, per frame, whether re matches its name or file; nil
// when re is nil.
func matchFrames(p *Profile, re *regexp.Regexp) []bool {
	m := make([]bool, len(p.Frames))
	if re == nil {
		return m
	}
	for i := range p.Frames {
		f := &p.Frames[i]
		m[i] = re.MatchString(f.Name) || (f.File != "" && re.MatchString(f.File))
	}
	return m
}

// keptSelf returns self with the values of dropped samples zeroed: a sample
// (all samples ending at a node share its path) is kept when a frame on its
// path matches focus (or hasFocus is false) and none matches ignore.
func keptSelf(t *Tree, self []int64, focus, ignore []bool, hasFocus bool) []int64 {
	out := make([]int64, len(self))
	focused := make([]bool, t.Len())
	ignored := make([]bool, t.Len())
	for n := range out {
		fr := t.Frame[n]
		focused[n], ignored[n] = focus[fr] || !hasFocus, ignore[fr]
		if pa := t.Parent[n]; pa >= 0 {
			focused[n] = focused[n] || focused[pa]
			ignored[n] = ignored[n] || ignored[pa]
		}
		if focused[n] && !ignored[n] {
			out[n] = self[n]
		}
	}
	return out
}

// subtreeTotals sums self over each node's subtree.
func subtreeTotals(t *Tree, self []int64) []int64 {
	tot := append([]int64(nil), self...)
	for n := int32(t.Len()) - 1; n >= 0; n-- {
		if pa := t.Parent[n]; pa >= 0 {
			tot[pa] += tot[n]
		}
	}
	return tot
}

// ReportTotal returns the total that shares of p are of: pprof's report
// total, the sum of |value| over all samples, those with no frames and
// those a filter emptied included (a filter keeps every sample); for a
// difference (see Compare) whose baseline samples have weight, over those
// samples only, as pprof computes it under -diff_base. Linear in the
// samples.
func (p *Profile) ReportTotal(v int) int64 { return absTotal(p, v) }

// absTotal is ReportTotal.
func absTotal(p *Profile, v int) int64 {
	var all, base int64
	for i := range p.Samples {
		s := &p.Samples[i]
		x := abs64(p.Value(s, v))
		all += x
		if s.labels != 0 && slices.Contains(p.Labels(s)[BaseLabel], "true") {
			base += x
		}
	}
	if base > 0 {
		return base
	}
	return all
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// sortTop orders rows as pprof's FlatNameOrder or CumNameOrder.
func sortTop(rows []TopRow, byCum bool) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		k1a, k1b, k2a, k2b := abs64(a.Flat), abs64(b.Flat), abs64(a.Cum), abs64(b.Cum)
		if byCum {
			k1a, k1b, k2a, k2b = k2a, k2b, k1a, k1b
		}
		if k1a != k1b {
			return k1a > k1b
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return k2a > k2b
	})
}
