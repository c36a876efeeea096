package avid

import (
	"github.com/proflens/proflens/analysis"
)

// A timeline is a recording's calls between entities and its memory
// events by entity, in the order they happened: the calls of each step
// outermost first (analysis.Steps), and the memory events after the steps
// of the same time. Features are judged on it.
type timeline struct {
	items []item
	arcs  map[[2]int32]int32 // arc → its index in items' key
}

// item is one call on an arc, or one memory event's objects.
type item struct {
	time  int64
	kind  itemKind
	key   int32 // the arc's index (a call), or the entity (memory)
	count int64
}

type itemKind uint8

const (
	callItem itemKind = iota
	allocItem
	freeItem
)

// newTimeline lays out p's calls and memory events under em.
func newTimeline(p *analysis.Profile, em *EntityMap) *timeline {
	tl := &timeline{arcs: map[[2]int32]int32{}}
	_, steps := analysis.Steps(p)
	_, ms := analysis.MemoryEvents(p)
	j := 0
	for s := range steps {
		for ; j < len(ms) && ms[j].Time < s.Time; j++ {
			tl.memory(p, em, &ms[j])
		}
		if s.Stack < 0 {
			continue
		}
		st := p.Stacks.At(s.Stack)
		for d := max(len(st)-int(s.Entered), 1); d < len(st); d++ {
			if from, to := em.Frame[st[d-1]], em.Frame[st[d]]; from != to {
				tl.items = append(tl.items, item{time: s.Time, kind: callItem, key: tl.arc(from, to), count: 1})
			}
		}
	}
	for ; j < len(ms); j++ {
		tl.memory(p, em, &ms[j])
	}
	return tl
}

func (tl *timeline) memory(p *analysis.Profile, em *EntityMap, m *analysis.Memory) {
	k := allocItem
	if m.Free {
		k = freeItem
	}
	tl.items = append(tl.items, item{time: m.Time, kind: k, key: MemoryEntity(p, em, m), count: m.Count})
}

// arc returns the index of an arc, adding it.
func (tl *timeline) arc(from, to int32) int32 {
	k := [2]int32{from, to}
	if i, ok := tl.arcs[k]; ok {
		return i
	}
	i := int32(len(tl.arcs))
	tl.arcs[k] = i
	return i
}

// call returns the position of the k-th call on arc from→to, -1 when
// there are fewer.
func (tl *timeline) call(from, to int32, k int64) int {
	i, ok := tl.arcs[[2]int32{from, to}]
	if !ok {
		return -1
	}
	for pos, it := range tl.items {
		if it.kind == callItem && it.key == i {
			if k--; k == 0 {
				return pos
			}
		}
	}
	return -1
}

// before returns the position of the last item at or before time t, -1
// when none is.
func (tl *timeline) before(t int64) int {
	pos := -1
	for i, it := range tl.items {
		if it.time > t {
			break
		}
		pos = i
	}
	return pos
}

// count sums the items of a kind and key in positions (from, to].
func (tl *timeline) count(kind itemKind, key int32, from, to int) int64 {
	var n int64
	for i := from + 1; i <= to && i < len(tl.items); i++ {
		if it := tl.items[i]; it.kind == kind && it.key == key {
			n += it.count
		}
	}
	return n
}
