package jfr

import (
	"strings"

	"github.com/grafana/jfr-parser/parser/types"

	"github.com/proflens/proflens/analysis"
)

type stackKey struct {
	chunk int32
	ref   types.StackTraceRef
}

type methodKey struct {
	chunk int32
	ref   types.MethodRef
}

// stacker turns the stack traces of the chunks' constant pools into the
// builder's stacks, each once.
type stacker struct {
	r         *reader
	b         *analysis.Builder
	ids       map[stackKey]int32
	names     map[methodKey]string
	frames    []int32
	truncated int
	classes   map[classKey]int32 // memory.go
}

// stack returns the builder's stack for a chunk's stack trace, root first;
// a trace the chunk lacks is the empty stack.
func (s *stacker) stack(chunk int32, ref types.StackTraceRef) int32 {
	key := stackKey{chunk, ref}
	if id, ok := s.ids[key]; ok {
		return id
	}
	s.frames = s.frames[:0]
	if st := s.r.parsers[chunk].GetStacktrace(ref); st != nil {
		for i := len(st.Frames) - 1; i >= 0; i-- {
			name := s.method(chunk, st.Frames[i].Method)
			s.frames = append(s.frames, s.b.Frame(analysis.Frame{Name: name}))
		}
		if st.Truncated {
			s.truncated++
		}
	}
	id := s.b.Stack(s.frames)
	s.ids[key] = id
	return id
}

// method names a method "pkg.Class.method"; a frame without a class (a
// native one, from async-profiler) keeps its symbol.
func (s *stacker) method(chunk int32, ref types.MethodRef) string {
	key := methodKey{chunk, ref}
	if name, ok := s.names[key]; ok {
		return name
	}
	p := s.r.parsers[chunk]
	name := "[unknown method]"
	if m := p.GetMethod(ref); m != nil {
		name = strings.Clone(p.GetSymbolString(m.Name)) // the parser's strings point into the file's bytes
		if c := p.GetClass(m.Type); c != nil {
			if cls := p.GetSymbolString(c.Name); cls != "" {
				name = strings.ReplaceAll(cls, "/", ".") + "." + name
			}
		}
	}
	s.names[key] = name
	return name
}
