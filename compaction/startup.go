package compaction

import "slices"

// Startup marks the nodes of v's start-up chains: the nodes whose members
// are all start-up nodes of the call tree (analysis.Tree.Startup: the
// loader's, the C library's or a runtime's frames above the program's
// entry), below a root or a marked node. Pictures draw them as one thin
// bar, the Profiling Blueprint as no box. A view without a call tree has
// none. Time is linear in the call tree and the view.
func (v *View) Startup() []bool {
	mark := make([]bool, len(v.Nodes))
	if v.Tree == nil {
		return mark
	}
	su := v.Tree.Startup()
	for _, n := range v.Preorder() {
		if p := v.Parent(n); p >= 0 && !mark[p] {
			continue
		}
		mark[n] = !slices.ContainsFunc(v.Nodes[n].Members, func(m int32) bool { return !su[m] })
	}
	return mark
}

// StartupChain names v's heaviest start-up chain, given its marks
// (Startup): from the heaviest marked root down its heaviest marked
// children; nil when there is none.
func (v *View) StartupChain(mark []bool) []string {
	var out []string
	n := int32(-1)
	for _, r := range v.Roots { // heaviest first
		if mark[r] {
			n = r
			break
		}
	}
	for n >= 0 {
		out = append(out, v.Nodes[n].Name)
		next := int32(-1)
		for _, k := range v.Nodes[n].Children { // heaviest first
			if mark[k] {
				next = k
				break
			}
		}
		n = next
	}
	return out
}
