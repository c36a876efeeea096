package compaction

import (
	"cmp"
	"fmt"
	"slices"
)

// Sandwich is what surrounds one compacted name in a view (speedscope's
// sandwich, pprof's peek): the callers above every node of that name and
// the callees below them, each merged over every place the name occurs.
// On a call path that passes through the name more than once, its
// outermost node counts (as speedscope takes it): the callers are those of
// the outermost place, the callees everything below it, inner places
// included, so recursion is counted once per stack, as pprof's cum is.
type Sandwich struct {
	Name   string
	Places []int32 // the view's nodes of that name, in pre-order
	Outer  int     // how many of them are outermost on their call paths
	Whole  int64   // the view's total (its roots'), which shares are of
	// Callers is inverted: the name at its root, the callers of its
	// outermost places below it, merged by name along each path up. A
	// caller's self is the weight of the call paths that start there.
	Callers *View
	// Callees has the name at its root and the subtrees of its outermost
	// places below, merged by name along each path down.
	Callees *View
}

// NewSandwich returns the sandwich of name in v. Both halves are views
// assembled by hand (see Assemble) over v's call tree and value type; a
// node's members are the call-tree members of the nodes it merges. Time is
// linear in the view plus the depth of each outermost place.
func NewSandwich(v *View, name string) (*Sandwich, error) {
	s := &Sandwich{Name: name}
	var outer []int32
	var walk func(i int32, inside bool)
	walk = func(i int32, inside bool) {
		n := v.Nodes[i]
		here := n.Name == name
		if here {
			s.Places = append(s.Places, i)
			if !inside {
				outer = append(outer, i)
			}
		}
		for _, c := range n.Children {
			walk(c, inside || here)
		}
	}
	for _, r := range v.Roots {
		walk(r, false)
		s.Whole += v.Nodes[r].Total
	}
	if len(outer) == 0 {
		return nil, fmt.Errorf("sandwich: no compacted node is named %q", name)
	}
	s.Outer = len(outer)
	s.Callees = v.assembled(calleesOf(v, outer))
	s.Callers = v.assembled(callersOf(v, outer))
	return s, nil
}

// merged is a node of a sandwich half in the making.
type merged struct {
	name        string
	total, self int64
	members     []int32
	kids        []*merged
	byName      map[string]*merged
}

// child returns m's child named name, adding it.
func (m *merged) child(name string) *merged {
	if k := m.byName[name]; k != nil {
		return k
	}
	if m.byName == nil {
		m.byName = map[string]*merged{}
	}
	k := &merged{name: name}
	m.kids = append(m.kids, k)
	m.byName[name] = k
	return k
}

// calleesOf merges the subtrees of the places by name.
func calleesOf(v *View, places []int32) *merged {
	root := &merged{name: v.Nodes[places[0]].Name}
	var add func(m *merged, i int32)
	add = func(m *merged, i int32) {
		n := v.Nodes[i]
		m.total, m.self = m.total+n.Total, m.self+n.Self
		m.members = append(m.members, n.Members...)
		for _, c := range n.Children {
			add(m.child(v.Nodes[c].Name), c)
		}
	}
	for _, p := range places {
		add(root, p)
	}
	return root
}

// callersOf merges the paths from the places up to the roots by name, each
// weighted by its place's total.
func callersOf(v *View, places []int32) *merged {
	root := &merged{name: v.Nodes[places[0]].Name}
	for _, p := range places {
		w := v.Nodes[p].Total
		m := root
		m.total += w
		m.members = append(m.members, v.Nodes[p].Members...)
		for up := v.Parent(p); up >= 0; up = v.Parent(up) {
			m = m.child(v.Nodes[up].Name)
			m.total += w
			m.members = append(m.members, v.Nodes[up].Members...)
		}
		m.self += w
	}
	return root
}

// assembled turns a merged tree into a view of v's tree and value type:
// nodes in pre-order, children by descending total, then name.
func (v *View) assembled(root *merged) *View {
	var nodes []*Node
	var add func(m *merged) int32
	add = func(m *merged) int32 {
		id := int32(len(nodes))
		slices.Sort(m.members)
		n := &Node{Name: m.name, Total: m.total, Self: m.self, Members: slices.Compact(m.members)}
		nodes = append(nodes, n)
		slices.SortFunc(m.kids, func(a, b *merged) int { return cmp.Or(cmp.Compare(b.total, a.total), cmp.Compare(a.name, b.name)) })
		for _, k := range m.kids {
			n.Children = append(n.Children, add(k))
		}
		return id
	}
	add(root)
	out := Assemble(nodes, []int32{0})
	out.Tree, out.Value = v.Tree, v.Value
	return out
}
