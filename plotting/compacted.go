package plotting

import (
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// This file holds the two things plotting works out about compacted nodes
// that compaction knows better: a node's name elements, and which nodes are
// new since another view. Each sits behind one function, so that using
// compaction's own answers is a change here alone.

// elements returns the name elements of node of v, which concatenate to its
// name: those of its first member's frame in the call tree, as many as the
// name has; without a call tree (or when they do not add up to the name),
// analysis.Split of the name.
func elements(v *compaction.View, node int32) []string {
	name := v.Nodes[node].Name
	if v.Tree != nil && v.Tree.Names != nil && len(v.Nodes[node].Members) > 0 {
		t := v.Tree
		f := t.Frame[v.Nodes[node].Members[0]]
		var out []string
		n := 0
		for _, e := range t.Names.Elems[f] {
			if n >= len(name) {
				break
			}
			s := t.Names.Strings[e]
			out = append(out, s)
			n += len(s)
		}
		if n == len(name) {
			return out
		}
	}
	return analysis.Split(name, analysis.LangAuto)
}

// added returns a test of whether a node of v is new since the view since
// (of the same call tree): no node there has the same members (a node a
// step split, merged or moved members into). Views without a call tree
// compare handles, names and totals instead. It returns nil when there is
// nothing to compare: no view since, or v itself.
func added(since, v *compaction.View) func(node int32) bool {
	if since == nil || since == v {
		return nil
	}
	return func(i int32) bool { return !inView(since, v, i) }
}

// inView reports whether v has a node with the members of node i of w.
func inView(v, w *compaction.View, i int32) bool {
	n := w.Nodes[i]
	if v.Tree != nil && len(n.Members) > 0 && int(n.Members[0]) < v.Tree.Len() {
		return slices.Equal(v.Nodes[v.NodeOf(n.Members[0])].Members, n.Members)
	}
	h := w.Handle(i)
	j, err := v.Resolve(h)
	return err == nil && v.Handle(j) == h && v.Nodes[j].Name == n.Name && v.Nodes[j].Total == n.Total
}
