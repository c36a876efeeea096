package analysis

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// TreeOptions cut the text call tree.
type TreeOptions struct {
	Value int     // value type index
	Depth int     // levels shown (1 = roots only); 0 shows all
	Min   float64 // percent of the profile's report total below which a node is cut
}

// TreeRow is one line of the text call tree: a call-tree node, or (Node = -1)
// the summary of the siblings cut by Min.
type TreeRow struct {
	Node   int32 // call-tree node id; -1 for a summary of cut siblings
	Depth  int   // indentation level
	Name   string
	Total  int64
	Self   int64
	Hidden int // nodes below this one that are not shown (cut by Depth or Min)
}

// TreeRows lists the call tree of t in depth-first order, children by
// descending total then name: the "TreeTable" of the ProfVis paper. Siblings
// whose total is below Min percent are folded into one summary row; nodes
// deeper than Depth are counted in their ancestor's Hidden.
func TreeRows(t *Tree, o TreeOptions) []TreeRow {
	cut := o.Min / 100 * float64(t.Profile.ReportTotal(o.Value))
	var rows []TreeRow
	var walk func(nodes []int32, depth int)
	walk = func(nodes []int32, depth int) {
		sortNodes(t, o.Value, nodes)
		var rest TreeRow
		for _, n := range nodes {
			tot := t.Total[o.Value][n]
			if o.Min > 0 && float64(abs64(tot)) < cut {
				rest.Total += tot
				rest.Self += tot
				rest.Hidden += int(t.Size[n])
				continue
			}
			rows = append(rows, TreeRow{Node: n, Depth: depth, Name: t.Names.Show(t.Name(n)), Total: tot, Self: t.Self[o.Value][n]})
			if o.Depth > 0 && depth+1 >= o.Depth {
				rows[len(rows)-1].Hidden = int(t.Size[n]) - 1
				continue
			}
			walk(children(t, n), depth+1)
		}
		if rest.Hidden > 0 {
			rest.Node, rest.Depth = -1, depth
			rest.Name = fmt.Sprintf("… %d more below %s", rest.Hidden, trimFloat(o.Min)+"%")
			rows = append(rows, rest)
		}
	}
	walk(append([]int32(nil), t.Roots...), 0)
	return rows
}

// children returns the children of n in a new slice.
func children(t *Tree, n int32) []int32 {
	var out []int32
	t.Children(n, func(c int32) { out = append(out, c) })
	return out
}

// sortNodes orders nodes by descending |total| for value v, then name, then id.
func sortNodes(t *Tree, v int, nodes []int32) {
	sort.Slice(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		if ta, tb := abs64(t.Total[v][a]), abs64(t.Total[v][b]); ta != tb {
			return ta > tb
		}
		if na, nb := t.Name(a), t.Name(b); na != nb {
			return na < nb
		}
		return a < b
	})
}

// WriteTreeText writes the rows of TreeRows as an indented table with
// totals, percentages of the profile's report total (ReportTotal) and
// self values, in the value type's unit.
func WriteTreeText(w io.Writer, t *Tree, o TreeOptions) error {
	unit := t.Profile.ValueTypes[o.Value].Unit
	whole := t.Profile.ReportTotal(o.Value)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%10s %6s %10s  %s\n", "total", "%", "self", "name")
	for _, r := range TreeRows(t, o) {
		self := FormatValue(r.Self, unit)
		if r.Node < 0 {
			self = ""
		}
		name := r.Name
		if r.Hidden > 0 && r.Node >= 0 {
			name += fmt.Sprintf(" [+%d]", r.Hidden)
		}
		fmt.Fprintf(bw, "%10s %6s %10s  %s%s\n", FormatValue(r.Total, unit), Percent(r.Total, whole), self,
			strings.Repeat("  ", r.Depth), name)
	}
	return bw.Flush()
}

// trimFloat formats x with up to three decimals and no trailing zeros.
func trimFloat(x float64) string {
	s := fmt.Sprintf("%.3f", x)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
