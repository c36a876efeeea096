package compaction

import (
	"context"
	"fmt"
	"regexp"

	"github.com/proflens/proflens/analysis"
)

// State is a granularity state: how many name elements each call-tree node
// keeps. It is a small value owned by the session; the call tree is never
// touched. A state is never modified once made: Step and SetLevel return
// new states, which share with it the pages of levels they do not change.
// Make states with NewState; a state belongs to the tree it was made for.
type State struct {
	lv paged  // per call-tree node id; a level beyond the name's length means the full name
	ix *index // the tree's interned compacted names, shared by the states of one tree
}

// NewState returns the uniform state with every node of t at level g (at
// least 1). Its first compaction interns t's compacted names (linear in
// the total number of name elements); states derived from it afterwards
// share that work.
func NewState(t *analysis.Tree, g int) *State {
	return &State{lv: newPaged(t.Len(), clampLevel(g))}
}

// NewStateOf returns the state of t with node n at level levels[n] (a
// level below 1 counts as 1): how a session carries a granularity state
// to another tree of the same profile, such as a filtered one.
func NewStateOf(t *analysis.Tree, levels []int32) *State {
	s := NewState(t, 1)
	w := s.lv.writer()
	for n, g := range levels {
		w.set(int32(n), clampLevel(int(g)))
	}
	return &State{lv: w.l, ix: s.ix}
}

// Level returns the level of call-tree node n: how many name elements it
// keeps (a level beyond the name's length means the full name).
func (s *State) Level(n int32) int32 { return s.lv.at(n) }

// Levels returns every call-tree node's level, by node id.
func (s *State) Levels() []int32 { return s.lv.flat() }

func clampLevel(g int) int32 {
	if g < 1 {
		return 1
	}
	if g > 1<<20 {
		return 1 << 20
	}
	return int32(g)
}

// index returns the interned names of t, building them if s has none for t.
func (s *State) index(t *analysis.Tree) *index {
	ix, _ := s.indexContext(context.Background(), t)
	return ix
}

// indexContext is index that gives up when ctx is done, returning ctx's
// error and leaving s as it was.
func (s *State) indexContext(ctx context.Context, t *analysis.Tree) (*index, error) {
	if s.ix == nil || s.ix.tree != t {
		ix, err := newIndex(ctx, t)
		if err != nil {
			return nil, err
		}
		s.ix = ix
	}
	return s.ix, nil
}

// indexOf returns s's interned names when they are t's, else nil: a state
// derived from s shares them, or interns its own at its first compaction.
func (s *State) indexOf(t *analysis.Tree) *index {
	if s.ix != nil && s.ix.tree == t {
		return s.ix
	}
	return nil
}

// SetLevel returns a copy of s where every node of t whose full name matches
// re (every node when re is nil) is at level g, and the number of nodes set.
func (s *State) SetLevel(t *analysis.Tree, g int, re *regexp.Regexp) (*State, int, error) {
	if g < 1 {
		return nil, 0, fmt.Errorf("level %d: levels start at 1 (the top name element)", g)
	}
	ix := s.indexOf(t)
	lv := clampLevel(g)
	if re == nil {
		return &State{lv: newPaged(t.Len(), lv), ix: ix}, t.Len(), nil
	}
	w := s.lv.writer()
	match := make([]int8, len(t.Profile.Frames)) // 0 unknown, 1 no, 2 yes
	n := 0
	for v := range int32(t.Len()) {
		f := t.Frame[v]
		if match[f] == 0 {
			match[f] = 1
			if re.MatchString(t.Profile.Frames[f].Name) {
				match[f] = 2
			}
		}
		if match[f] == 2 {
			w.set(v, lv)
			n++
		}
	}
	return &State{lv: w.l, ix: ix}, n, nil
}
