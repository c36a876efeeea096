package compaction

import (
	"slices"
)

// view turns the groups into a View: compacted nodes in pre-order, children
// by descending total then name, members ascending, handles assigned.
func (g *grouping) view(value int) *View {
	t := g.t
	tot := t.Total[value]
	ng := len(g.gName)
	gtot := make([]int64, ng)
	for gi := 1; gi < ng; gi++ {
		for _, s := range g.seeds[g.seedLo[gi]:g.seedHi[gi]] {
			gtot[gi] += tot[s]
		}
	}
	// Order each group's children, then number the groups in pre-order.
	order := make([]int32, ng)
	for i := range order {
		order[i] = int32(i)
	}
	str := g.ix.str
	for gi := 0; gi < ng; gi++ {
		kids := order[g.kidLo[gi]:g.kidHi[gi]]
		if len(kids) > 1 {
			slices.SortFunc(kids, func(a, b int32) int {
				if gtot[a] != gtot[b] {
					if gtot[a] > gtot[b] {
						return -1
					}
					return 1
				}
				if sa, sb := str[g.gName[a]], str[g.gName[b]]; sa != sb {
					if sa < sb {
						return -1
					}
					return 1
				}
				return int(a - b)
			})
		}
	}
	vi := make([]int32, ng) // group id -> view index
	vi[0] = -1
	pre := make([]int32, 0, ng-1) // view index -> group id
	stack := make([]int32, 0, 64)
	push := func(gi int32) {
		kids := order[g.kidLo[gi]:g.kidHi[gi]]
		for j := len(kids) - 1; j >= 0; j-- {
			stack = append(stack, kids[j])
		}
	}
	push(0)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		vi[gi] = int32(len(pre))
		pre = append(pre, gi)
		push(gi)
	}

	v := &View{
		Tree: t, Value: value, Before: t.Len(), After: len(pre),
		Nodes:  make([]Node, len(pre)),
		NodeOf: make([]int32, t.Len()),
		name:   make([]int32, len(pre)),
	}
	g.members(v, vi)
	kidBuf := make([]int32, 0, len(pre))
	for i, gi := range pre {
		nd := &v.Nodes[i]
		nd.Name = str[g.gName[gi]]
		v.name[i] = g.gName[gi]
		nd.Total = gtot[gi]
		nd.Self = gtot[gi]
		nd.Parent = vi[g.gUp[gi]]
		if nd.Parent >= 0 {
			nd.Depth = v.Nodes[nd.Parent].Depth + 1
		}
		lo := len(kidBuf)
		for _, k := range order[g.kidLo[gi]:g.kidHi[gi]] {
			kidBuf = append(kidBuf, vi[k])
			nd.Self -= gtot[k]
		}
		nd.Children = kidBuf[lo:len(kidBuf):len(kidBuf)]
	}
	for _, k := range order[g.kidLo[0]:g.kidHi[0]] {
		v.Roots = append(v.Roots, vi[k])
	}
	assignHandles(v)
	return v
}

// members fills v.NodeOf and each node's Members (ascending) with a counting
// sort over the call-tree ids; all Members share one array.
func (g *grouping) members(v *View, vi []int32) {
	count := make([]int32, len(v.Nodes)+1)
	for n, gi := range g.grp {
		x := vi[gi]
		v.NodeOf[n] = x
		count[x+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	flat := make([]int32, len(g.grp))
	for i := range v.Nodes {
		v.Nodes[i].Members = flat[count[i]:count[i]:count[i+1]]
	}
	for n, x := range v.NodeOf {
		m := &v.Nodes[x].Members
		*m = append(*m, int32(n))
	}
}
