package blueprint

import (
	"fmt"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
)

// The entities of a mutation file.
const (
	EntityMutates = "mutates"
	EntityPure    = "pure"
)

// Mutations reads which frames of t modify their receiver or arguments
// (the Profiling Blueprint's grey and yellow shading) from a mapping whose
// entities are "mutates" and "pure", in the mapping's own syntax:
//
//	mutates class ROElement.add*
//	pure    function ROElement.bounds
//
// It returns a Mutation per frame id: Mutates, Pure, or MutationUnknown for
// frames no line matches. A mapping with other entities is an error.
func Mutations(m *avid.Mapping, t *analysis.Tree) ([]Mutation, error) {
	for _, e := range m.Entities {
		if e != EntityMutates && e != EntityPure {
			return nil, fmt.Errorf("%s: entity %q: a mutation file has the entities %s and %s only", m.Name, e, EntityMutates, EntityPure)
		}
	}
	em := m.Apply(t.Profile)
	kinds := make([]Mutation, len(em.Names))
	for i, name := range em.Names {
		kinds[i] = map[string]Mutation{EntityMutates: Mutates, EntityPure: Pure}[name]
	}
	out := make([]Mutation, len(em.Frame))
	for f, e := range em.Frame {
		out[f] = kinds[e]
	}
	return out, nil
}

// Combine returns the mutation of a group of functions: it mutates when
// one of them does, is pure when all of them are, unknown otherwise.
func Combine(ms ...Mutation) Mutation {
	switch {
	case slices.Contains(ms, Mutates):
		return Mutates
	case len(ms) > 0 && !slices.ContainsFunc(ms, func(m Mutation) bool { return m != Pure }):
		return Pure
	}
	return MutationUnknown
}
