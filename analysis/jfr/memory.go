package jfr

import (
	"strings"

	"github.com/grafana/jfr-parser/parser/types"

	"github.com/proflens/proflens/analysis"
)

// Allocation events are memory events too (analysis.Memory), for AVID's
// bars of allocations per entity: each is one allocation of an object of
// the event's objectClass, on the event's stack and thread, of its
// allocationSize (a sample's weight, for jdk.ObjectAllocationSample). The
// JVM samples allocations (an event per new TLAB, per allocation outside a
// TLAB, or per sample), so the recording is analysis.MemorySampled. Classes
// are named as the JDK's jfr tool prints them: "java.lang.String",
// "byte[]", "java.lang.Object[]".

// memory adds allocation event e, on stack, as a memory event.
func (s *stacker) memory(e *event, stack int32) {
	s.b.Memory(analysis.Memory{Time: e.time, Stack: stack, Class: s.class(e.chunk, e.class), Count: 1, Bytes: e.v}, s.r.threads[e.thread])
	s.b.Profile().MemorySource = analysis.MemorySampled
}

type classKey struct {
	chunk int32
	ref   types.ClassRef
}

// class returns the frame that names a chunk's class.
func (s *stacker) class(chunk int32, ref types.ClassRef) int32 {
	key := classKey{chunk, ref}
	if id, ok := s.classes[key]; ok {
		return id
	}
	name := "[unknown class]"
	p := s.r.parsers[chunk]
	if c := p.GetClass(ref); c != nil {
		if n := p.GetSymbolString(c.Name); n != "" {
			name = className(n)
		}
	}
	if s.classes == nil {
		s.classes = map[classKey]int32{}
	}
	id := s.b.Frame(analysis.Frame{Name: name})
	s.classes[key] = id
	return id
}

// primitives are the JVM's descriptors of primitive array elements.
var primitives = map[byte]string{'B': "byte", 'C': "char", 'D': "double", 'F': "float", 'I': "int", 'J': "long", 'S': "short", 'Z': "boolean"}

// className turns a JVM class name ("java/lang/String", "[B",
// "[Ljava/lang/Object;") into the Java form ("java.lang.String", "byte[]",
// "java.lang.Object[]").
func className(n string) string {
	dims := 0
	for dims < len(n) && n[dims] == '[' {
		dims++
	}
	elem := n[dims:]
	switch {
	case dims == 0:
	case len(elem) == 1 && primitives[elem[0]] != "":
		elem = primitives[elem[0]]
	case strings.HasPrefix(elem, "L") && strings.HasSuffix(elem, ";"):
		elem = elem[1 : len(elem)-1]
	}
	return strings.ReplaceAll(elem, "/", ".") + strings.Repeat("[]", dims)
}
