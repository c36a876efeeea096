package kernel

import "maps"

// A Key names a value that commands keep on a profile (a *Loaded) or on the
// session, beside the engine's own state: the last phases run of a
// profile, the mappings defined, the live attachments. T is its type. What
// a profile keeps is part of what a failed command leaves as it found it
// (Interp.call).
type Key[T any] struct{ name string }

// NewKey returns a new key; name is for reading the code and debugging.
func NewKey[T any](name string) *Key[T] { return &Key[T]{name: name} }

// A Keeper keeps values under keys: a *Loaded or the *Session.
type Keeper interface{ keep() map[any]any }

// Get returns the value kept under k, or T's zero value.
func (k *Key[T]) Get(h Keeper) T {
	v, _ := h.keep()[k].(T)
	return v
}

// Set keeps v under k.
func (k *Key[T]) Set(h Keeper, v T) { h.keep()[k] = v }

func (s *Session) keep() map[any]any {
	if s.kept == nil {
		s.kept = map[any]any{}
	}
	return s.kept
}

func (l *Loaded) keep() map[any]any {
	if l.kept == nil {
		l.kept = map[any]any{}
	}
	return l.kept
}

// saved is a profile as it was before a command ran, to put back when the
// command fails.
type saved struct {
	l   *Loaded
	was Loaded
}

// save returns the profiles ls as they are (each once).
func save(ls []*Loaded) []saved {
	var out []saved
	for _, l := range ls {
		if l != nil && !containsLoaded(out, l) {
			was := *l
			was.kept = maps.Clone(l.kept)
			out = append(out, saved{l, was})
		}
	}
	return out
}

func containsLoaded(ss []saved, l *Loaded) bool {
	for _, s := range ss {
		if s.l == l {
			return true
		}
	}
	return false
}

// restore puts every saved profile back as it was.
func restore(ss []saved) {
	for _, s := range ss {
		*s.l = s.was
	}
}
