package gotrace

import (
	"encoding/binary"
	"strconv"

	"golang.org/x/exp/trace"

	"github.com/proflens/proflens/analysis"
)

// Heap objects. A trace recorded with GODEBUG=traceallocfree=1 (Go 1.23 and
// later) holds the runtime's AllocFree experiment: an event per heap object
// allocated (HeapObjectAlloc: the object's id and its type) and freed
// (HeapObjectFree: its id), the objects alive when tracing started
// (HeapObject), and, per generation, a batch naming the types. They become
// memory events (analysis.Memory) of the allocating goroutine, each of one
// object of its type ("main.node", "[]uint8"), with no stack: the runtime
// records none. Every allocation is recorded, so the source is
// analysis.MemoryTraced. A free's type is that of the object's allocation,
// or of its HeapObject event.

// heap is what the AllocFree events need: the types of the current
// generation, and the class of each object alive.
type heap struct {
	types   map[uint64]heapType // type id → type, this generation
	objects map[uint64]int32    // object id → class frame
	classes map[string]int32    // type name → class frame
	bad     int                 // type batches the loader could not read
}

type heapType struct {
	name string
	size int64
}

// sync reads the type batches of a generation.
func (h *heap) sync(s trace.Sync) {
	h.types = map[uint64]heapType{}
	for _, b := range s.ExperimentalBatches["AllocFree"] {
		if !h.readTypes(b.Data) {
			h.bad++
		}
	}
}

// readTypes reads a batch of types: a kind byte (0 for types), then per
// type its id, address, size, pointer bytes, and name as length and bytes.
// It reports false for a batch it cannot read to the end.
func (h *heap) readTypes(d []byte) bool {
	if len(d) == 0 || d[0] != 0 {
		return true // another kind of batch
	}
	d = d[1:]
	for len(d) > 0 {
		var v [5]uint64
		for i := range v {
			x, n := binary.Uvarint(d)
			if n <= 0 {
				return false
			}
			v[i], d = x, d[n:]
		}
		if v[4] > uint64(len(d)) {
			return false
		}
		h.types[v[0]] = heapType{name: string(d[:v[4]]), size: int64(min(v[2], 1<<40))}
		d = d[v[4]:]
	}
	return true
}

// event turns an AllocFree event into a memory event.
func (g *goTrace) heapEvent(ev trace.Event) {
	e := ev.Experimental()
	arg := func(name string) (uint64, bool) {
		for i, a := range e.Args {
			if a == name {
				return ev.Experimental().ArgValue(i).Uint64(), true
			}
		}
		return 0, false
	}
	id, ok := arg("id")
	if !ok {
		return
	}
	h := &g.heap
	switch e.Name {
	case "HeapObject", "HeapObjectAlloc":
		typ, _ := arg("type")
		class, size := g.class(h.types[typ]), h.types[typ].size
		if h.objects == nil {
			h.objects = map[uint64]int32{}
		}
		h.objects[id] = class
		if e.Name == "HeapObjectAlloc" {
			g.b.Memory(analysis.Memory{Time: int64(ev.Time().Sub(g.t0)), Stack: -1, Class: class, Count: 1, Bytes: size}, g.thread(ev))
		}
	case "HeapObjectFree":
		class, ok := h.objects[id]
		if !ok {
			class = -1
		}
		delete(h.objects, id)
		g.b.Memory(analysis.Memory{Time: int64(ev.Time().Sub(g.t0)), Stack: -1, Class: class, Count: 1, Free: true}, g.thread(ev))
	}
}

// class returns the frame naming a type, "(no type)" for an object the
// runtime gave none.
func (g *goTrace) class(t heapType) int32 {
	name := t.name
	if name == "" {
		name = "(no type)"
	}
	if id, ok := g.heap.classes[name]; ok {
		return id
	}
	if g.heap.classes == nil {
		g.heap.classes = map[string]int32{}
	}
	id := g.b.Frame(analysis.Frame{Name: name})
	g.heap.classes[name] = id
	return id
}

// thread names an event's goroutine ("g12"), or its thread ("m3").
func (g *goTrace) thread(ev trace.Event) string {
	if id := ev.Goroutine(); id != trace.NoGoroutine {
		return "g" + strconv.FormatInt(int64(id), 10)
	}
	return "m" + strconv.FormatInt(int64(ev.Thread()), 10)
}
