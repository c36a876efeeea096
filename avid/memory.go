package avid

import (
	"github.com/proflens/proflens/analysis"
)

// Objects are the paper's bars: per entity, the objects of its classes
// allocated and freed, from a recording's memory events
// (analysis.MemoryEvents).
type Objects struct {
	Source      analysis.MemorySource
	Alloc, Free []int64 // per entity (EntityMap.Names)
}

// CountObjects counts p's memory events by entity (MemoryEntity); nil when
// p has none. Time is linear in the events.
func CountObjects(p *analysis.Profile, em *EntityMap) *Objects {
	src, ms := analysis.MemoryEvents(p)
	if len(ms) == 0 {
		return nil
	}
	o := newObjects(src, len(em.Names))
	for i := range ms {
		o.add(MemoryEntity(p, em, &ms[i]), &ms[i])
	}
	return o
}

func newObjects(src analysis.MemorySource, n int) *Objects {
	return &Objects{Source: src, Alloc: make([]int64, n), Free: make([]int64, n)}
}

// add counts m's objects to entity e.
func (o *Objects) add(e int32, m *analysis.Memory) {
	if m.Free {
		o.Free[e] += m.Count
	} else {
		o.Alloc[e] += m.Count
	}
}

// MemoryEntity returns the entity of a memory event: that of its objects'
// class, else (a recording that names no class) that of the allocating
// frame, the leaf of its stack, else Other.
func MemoryEntity(p *analysis.Profile, em *EntityMap, m *analysis.Memory) int32 {
	switch {
	case m.Class >= 0:
		return em.Frame[m.Class]
	case m.Stack >= 0:
		if st := p.Stacks.At(m.Stack); len(st) > 0 {
			return em.Frame[st[len(st)-1]]
		}
	}
	return em.Other()
}
