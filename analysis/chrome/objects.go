package chrome

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// Object events. The trace-event format records an object's life with an
// N (created) and a D (destroyed) event naming the object's type and id; a
// trace of spans that has them is a recording of allocations and
// deallocations, AVID's memory events: each N is one allocation and each D
// one deallocation of an object of the class the event names, made by the
// innermost span open on its thread at its time (analysis.StackAtCall).
// O (snapshot) events change nothing. A D whose id no N created is still a
// deallocation: the object may predate the trace.

// addObjects adds the trace's N and D events to b as memory events.
func addObjects(b *analysis.Builder, events []traceEvent, labels *threadLabels, origin float64) {
	classes := map[string]int32{}
	n := 0
	for i := range events {
		e := &events[i]
		if e.Ph != "N" && e.Ph != "D" {
			continue
		}
		name := e.Name
		if name == "" {
			name = "(unnamed)"
		}
		class, ok := classes[name]
		if !ok {
			class = b.Frame(analysis.Frame{Name: name})
			classes[name] = class
		}
		m := analysis.Memory{Time: jsonprof.Nanos(float64(e.Ts) - origin), Stack: analysis.StackAtCall, Class: class, Count: 1, Free: e.Ph == "D"}
		b.Memory(m, labels.label(keyOf(e.Pid, e.Tid)))
		n++
	}
	if n > 0 {
		b.Profile().MemorySource = analysis.MemoryTraced
	}
}
