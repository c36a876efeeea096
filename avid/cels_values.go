package avid

import (
	"sort"

	"github.com/proflens/proflens/analysis"
)

// values fills each cel's Self and Objects: the samples' values by the
// entity of their leaf, and the memory events by MemoryEntity, each in
// the last cel starting at or before its time, summed up to each cel.
func (cs *Cels) values(t *analysis.Tree) {
	p, em, n := t.Profile, cs.Map, len(cs.Map.Names)
	self := make([][]int64, len(cs.Cels))
	for k := range self {
		self[k] = make([]int64, n)
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		if node := t.StackNode[s.Stack]; node >= 0 {
			self[cs.at(s.Time)][em.Frame[t.Frame[node]]] += p.Value(s, cs.Value)
		}
	}
	src, ms := analysis.MemoryEvents(p)
	var objs []*Objects
	if len(ms) > 0 {
		objs = make([]*Objects, len(cs.Cels))
		for k := range objs {
			objs[k] = newObjects(src, n)
		}
		for i := range ms {
			objs[cs.at(ms[i].Time)].add(MemoryEntity(p, em, &ms[i]), &ms[i])
		}
	}
	for k := range cs.Cels { // sums up to each cel
		if k > 0 {
			addInto(self[k], self[k-1])
			if objs != nil {
				addInto(objs[k].Alloc, objs[k-1].Alloc)
				addInto(objs[k].Free, objs[k-1].Free)
			}
		}
		cs.Cels[k].Self = self[k]
		if objs != nil {
			cs.Cels[k].Objects = objs[k]
		}
	}
}

// at returns the index of the last cel starting at or before time, 0 when
// none does.
func (cs *Cels) at(time int64) int {
	k := sort.Search(len(cs.Cels), func(k int) bool { return cs.Cels[k].Start > time })
	return max(k-1, 0)
}

// addInto adds src to dst, element by element.
func addInto(dst, src []int64) {
	for i, x := range src {
		dst[i] += x
	}
}
