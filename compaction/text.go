package compaction

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
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
// line: "name [total]  (handle)" (the name without the profile's common
// directory, analysis.Names.Short), two spaces of indent per depth, children
// by descending total. At most max nodes are written (0: all), in
// pre-order, followed by a line counting the rest. It stops at w's first
// error.
func (v *View) WriteText(w io.Writer, max int) error {
	bw := bufio.NewWriter(w)
	unit := v.Unit().Unit
	n := v.Shown(max)
	for _, i := range v.Preorder()[:n] {
		nd := v.Nodes[i]
		bw.WriteString(strings.Repeat("  ", v.Depth(i)))
		if _, err := fmt.Fprintf(bw, "%s [%s]  (%s)\n", v.Tree.Names.Short(nd.Name), analysis.FormatValue(nd.Total, unit), v.Handle(i)); err != nil {
			return err
		}
	}
	if n < v.After {
		fmt.Fprintf(bw, "… %d more compacted nodes not shown\n", v.After-n)
	}
	return bw.Flush()
}

// Shown is how many nodes WriteText writes with max: the first max in
// pre-order, all for 0.
func (v *View) Shown(max int) int {
	if max > 0 && v.After > max {
		return max
	}
	return v.After
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

// WriteJSON writes v.Doc(profile) as json.MarshalIndent writes it with
// indent (json.Marshal when indent is ""). It writes node by node, never
// holding the document, and stops at w's first error.
func (v *View) WriteJSON(w io.Writer, profile, indent string) error {
	vt := v.Unit()
	e := &docWriter{w: bufio.NewWriter(w), indent: indent}
	e.open('{')
	e.field("profile", true)
	e.str(profile)
	e.field("value", false)
	e.str(vt.Type)
	e.field("unit", false)
	e.str(vt.Unit)
	e.field("nodes_before", false)
	e.int(int64(v.Before))
	e.field("nodes_after", false)
	e.int(int64(v.After))
	e.field("roots", false)
	e.nodes(v, v.Roots)
	e.close('}')
	if e.err == nil {
		e.err = e.w.Flush()
	}
	if e.err != nil {
		return fmt.Errorf("write compacted tree of %s: %w", profile, e.err)
	}
	return nil
}

// docWriter writes a Doc piece by piece, as encoding/json would; once a
// write fails it writes nothing more and keeps the error.
type docWriter struct {
	w      *bufio.Writer
	indent string
	depth  int
	err    error
	num    []byte
}

func (e *docWriter) write(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// line starts a new line at the current depth, when indenting.
func (e *docWriter) line() {
	if e.indent != "" {
		e.write("\n")
		for range e.depth {
			e.write(e.indent)
		}
	}
}

func (e *docWriter) open(c byte) {
	e.write(string(c))
	e.depth++
}

func (e *docWriter) close(c byte) {
	e.depth--
	e.line()
	e.write(string(c))
}

// field starts the member name of an object; first is its first member.
func (e *docWriter) field(name string, first bool) {
	if !first {
		e.write(",")
	}
	e.line()
	e.str(name)
	e.write(":")
	if e.indent != "" {
		e.write(" ")
	}
}

// str writes s as a JSON string, escaped as json.Marshal escapes it.
func (e *docWriter) str(s string) {
	if plainJSON(s) {
		e.write(`"` + s + `"`)
		return
	}
	data, err := json.Marshal(s)
	if err != nil && e.err == nil {
		e.err = err
	}
	e.write(string(data))
}

// plainJSON reports whether s needs no escaping in JSON: printable ASCII
// without quotes, backslashes, or the <, > and & json.Marshal escapes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func (e *docWriter) int(n int64) {
	e.num = strconv.AppendInt(e.num[:0], n, 10)
	if e.err == nil {
		_, e.err = e.w.Write(e.num)
	}
}

// nodes writes the nodes ids (and their subtrees) as a JSON array.
func (e *docWriter) nodes(v *View, ids []int32) {
	if len(ids) == 0 {
		e.write("[]")
		return
	}
	e.open('[')
	for k, i := range ids {
		if e.err != nil {
			return
		}
		if k > 0 {
			e.write(",")
		}
		e.line()
		e.node(v, i)
	}
	e.close(']')
}

// node writes node i as a DocNode.
func (e *docWriter) node(v *View, i int32) {
	nd := v.Nodes[i]
	e.open('{')
	e.field("name", true)
	e.str(nd.Name)
	e.field("handle", false)
	e.str(v.Handle(i))
	e.field("total", false)
	e.int(nd.Total)
	e.field("self", false)
	e.int(nd.Self)
	e.field("members", false)
	e.int(int64(len(nd.Members)))
	e.field("children", false)
	e.nodes(v, nd.Children)
	e.close('}')
}
