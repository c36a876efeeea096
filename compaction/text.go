package compaction

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Unit returns the value type the view's totals are in.
func (v *View) Unit() analysis.ValueType { return v.Tree.Profile.ValueTypes[v.Value] }

// Counts returns the one-line summary of the compaction: call-tree nodes
// before, compacted nodes after.
func (v *View) Counts() string {
	return fmt.Sprintf("%d call-tree nodes → %d compacted nodes", v.Before, v.After)
}

// WriteText writes the view as an indented text tree, one compacted node a
// line: "name [total]  (handle)", two spaces of indent per depth, children
// by descending total. At most max nodes are written (0: all), in
// pre-order, followed by a line counting the rest.
func (v *View) WriteText(w io.Writer, max int) error {
	bw := bufio.NewWriter(w)
	unit := v.Unit().Unit
	n := v.After
	if max > 0 && n > max {
		n = max
	}
	for _, i := range v.Preorder()[:n] {
		nd := v.Nodes[i]
		bw.WriteString(strings.Repeat("  ", v.Depth(i)))
		fmt.Fprintf(bw, "%s [%s]  (%s)\n", nd.Name, analysis.FormatValue(nd.Total, unit), v.Handle(i))
	}
	if n < v.After {
		fmt.Fprintf(bw, "… %d more compacted nodes not shown\n", v.After-n)
	}
	return bw.Flush()
}

// Doc is the JSON form of a view (the `export FILE.json` contract): totals
// are raw values of the view's value type.
type Doc struct {
	Profile string    `json:"profile"`
	Value   string    `json:"value"`
	Unit    string    `json:"unit"`
	Before  int       `json:"nodes_before"`
	After   int       `json:"nodes_after"`
	Roots   []DocNode `json:"roots"`
}

// DocNode is one compacted node in a Doc; Members counts the call-tree
// nodes it merges. Children are by descending total, then name.
type DocNode struct {
	Name     string    `json:"name"`
	Handle   string    `json:"handle"`
	Total    int64     `json:"total"`
	Self     int64     `json:"self"`
	Members  int       `json:"members"`
	Children []DocNode `json:"children"`
}

// Doc returns the JSON form of v, naming the profile as profile.
func (v *View) Doc(profile string) *Doc {
	vt := v.Unit()
	d := &Doc{Profile: profile, Value: vt.Type, Unit: vt.Unit, Before: v.Before, After: v.After,
		Roots: v.docNodes(v.Roots)}
	return d
}

func (v *View) docNodes(ids []int32) []DocNode {
	out := make([]DocNode, len(ids))
	for k, i := range ids {
		nd := v.Nodes[i]
		out[k] = DocNode{Name: nd.Name, Handle: v.Handle(i), Total: nd.Total, Self: nd.Self,
			Members: len(nd.Members), Children: v.docNodes(nd.Children)}
	}
	return out
}

// WriteJSON writes v.Doc(profile) as indented JSON.
func (v *View) WriteJSON(w io.Writer, profile string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(v.Doc(profile)); err != nil {
		return fmt.Errorf("write compacted tree of %s: %w", profile, err)
	}
	return nil
}
