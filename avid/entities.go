package avid

import (
	"cmp"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Entities is the architectural view of a call tree under a mapping (AVID,
// seed 001): per entity its values and the calls into it, and the calls
// from entity to entity. A call from a frame to a frame of the same entity
// is no arc.
type Entities struct {
	Map    *EntityMap
	Source analysis.CountSource // where the calls come from; "" when the profile has none
	Value  int                  // the value type of Self and Total
	Grand  int64                // the profile's total of Value, for shares

	Self    []int64 // per entity (Map.Names): the values of samples whose leaf frame is in it
	Total   []int64 // per entity: the values of samples with a frame in it, each sample once
	CallsIn []int64 // per entity: the calls into it from other entities (the arcs' sum)
	Alloc   []int64 // per entity: self of the allocation value type; nil when the profile has none
	// AllocValue is the value type Alloc counts, -1 when there is none.
	AllocValue int
	// ValueType and AllocType are the types of Value and AllocValue.
	ValueType, AllocType analysis.ValueType
	// Objects counts the objects allocated and freed per entity, from the
	// profile's memory events; nil when it has none.
	Objects *Objects

	Arcs []Arc // by calls, most first, then by the entities' names
}

// Arc is a number of calls from frames of entity From to frames of entity
// To (indices into EntityMap.Names).
type Arc struct {
	From, To int32
	Calls    int64
}

// NewEntities sums t's values of type value by entity and counts the calls
// between entities from EntryCounts. Time is linear in the tree.
func NewEntities(t *analysis.Tree, em *EntityMap, value int) *Entities {
	n := len(em.Names)
	e := &Entities{Map: em, Value: value, Self: make([]int64, n), Total: make([]int64, n),
		CallsIn: make([]int64, n), AllocValue: allocValue(t.Profile)}
	for _, r := range t.Roots {
		e.Grand += t.Total[value][r]
	}
	e.Grand += t.Unrooted[value]
	e.ValueType = t.Profile.ValueTypes[value]
	if e.AllocValue >= 0 {
		e.AllocType = t.Profile.ValueTypes[e.AllocValue]
	}
	e.sum(t)
	e.Objects = CountObjects(t.Profile, em)
	if c, ok := analysis.EntryCounts(t); ok {
		e.Source = c.Source
		e.Arcs = arcsOf(t, em, c.Calls)
	}
	for _, a := range e.Arcs {
		e.CallsIn[a.To] += a.Calls
	}
	return e
}

// sum fills Self, Total and Alloc in one pre-order walk: a node adds its
// total to its entity unless an ancestor of the same entity already did.
func (e *Entities) sum(t *analysis.Tree) {
	ent := func(n int32) int32 { return e.Map.Frame[t.Frame[n]] }
	if e.AllocValue >= 0 {
		e.Alloc = make([]int64, len(e.Self))
	}
	onPath := make([]int32, len(e.Self))
	var path []int32
	for n := range int32(t.Len()) {
		for len(path) > 0 && path[len(path)-1] != t.Parent[n] {
			onPath[ent(path[len(path)-1])]--
			path = path[:len(path)-1]
		}
		en := ent(n)
		e.Self[en] += t.Self[e.Value][n]
		if e.Alloc != nil {
			e.Alloc[en] += t.Self[e.AllocValue][n]
		}
		if onPath[en] == 0 {
			e.Total[en] += t.Total[e.Value][n]
		}
		onPath[en]++
		path = append(path, n)
	}
}

// arcsOf adds each node's entries to the arc from its parent's entity to
// its own, when they differ, and sorts the arcs.
func arcsOf(t *analysis.Tree, em *EntityMap, calls []int64) []Arc {
	byPair := map[[2]int32]int64{}
	for n, pa := range t.Parent {
		if pa < 0 || calls[n] == 0 {
			continue
		}
		from, to := em.Frame[t.Frame[pa]], em.Frame[t.Frame[n]]
		if from != to {
			byPair[[2]int32{from, to}] += calls[n]
		}
	}
	arcs := make([]Arc, 0, len(byPair))
	for k, c := range byPair {
		arcs = append(arcs, Arc{From: k[0], To: k[1], Calls: c})
	}
	sortArcs(arcs, em.Names, func(a Arc) int64 { return a.Calls })
	return arcs
}

// sortArcs orders arcs by weight, most first, then by the names of their
// entities.
func sortArcs(arcs []Arc, names []string, weight func(Arc) int64) {
	slices.SortFunc(arcs, func(a, b Arc) int {
		return cmp.Or(cmp.Compare(weight(b), weight(a)), strings.Compare(names[a.From], names[b.From]),
			strings.Compare(names[a.To], names[b.To]))
	})
}

// allocValue returns the value type that counts allocations: objects
// before bytes (alloc_objects, inuse_objects, then alloc_space, inuse_space
// or a speedscope memory profile's space), or -1.
func allocValue(p *analysis.Profile) int {
	best, rank := -1, 0
	for i, vt := range p.ValueTypes {
		r := 0
		switch {
		case strings.Contains(vt.Type, "alloc") || strings.Contains(vt.Type, "inuse") || vt.Type == "space":
			r = 1
			if strings.Contains(vt.Type, "objects") || vt.Unit == "count" {
				r = 2
			}
		}
		if r > rank {
			best, rank = i, r
		}
	}
	return best
}
