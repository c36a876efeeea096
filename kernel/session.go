package kernel

import (
	"slices"
	"sort"
	"strconv"
	"sync/atomic"
)

// Session is the state of one kernel process or one `proflens run`: the
// loaded profiles and the current one. It survives failed and panicking
// commands.
type Session struct {
	Dir      string // directory that relative paths are resolved against
	Settings Settings
	profiles map[string]*Loaded
	current  string
	table    *CommandTable
	loads    int // profiles loaded so far, for default names
	displays int // progress lines shown so far, for unique display ids (progress.go)
	// names is a copy of the profile names, replaced on every change, so
	// that completion can read them while a cell runs.
	names atomic.Pointer[[]string]
	kept  map[any]any // what the commands keep on the session (keep.go)
}

// NewSession returns an empty session of the commands of t, resolving
// paths against dir.
func NewSession(dir string, t *CommandTable) *Session {
	return &Session{Dir: dir, profiles: map[string]*Loaded{}, Settings: defaultSettings(), table: t}
}

// Commands returns the commands of the session's language.
func (s *Session) Commands() *CommandTable { return s.table }

// Close ends what the commands left running for the session (live
// collections, and the demo targets they started). The profiles stay.
func (s *Session) Close() {
	if s.table.hooks.Close != nil {
		s.table.hooks.Close(s)
	}
}

// Add stores l under l.Name (replacing a profile of the same name) and makes
// it current.
func (s *Session) Add(l *Loaded) {
	s.profiles[l.Name] = l
	s.current = l.Name
	s.loads++
	s.snapshot()
}

// Put stores l under l.Name as Add does, but leaves the current profile
// current; l becomes current only when no profile is.
func (s *Session) Put(l *Loaded) {
	was := s.current
	s.Add(l)
	if s.Get(was) != nil {
		s.current = was
	}
}

// Remove drops the profile named name; when it was current, no profile is
// current afterwards.
func (s *Session) Remove(name string) {
	delete(s.profiles, name)
	if s.current == name {
		s.current = ""
	}
	s.snapshot()
}

// Loads returns how many profiles were added so far (for default names
// such as p1, p2).
func (s *Session) Loads() int { return s.loads }

func (s *Session) snapshot() {
	out := make([]string, 0, len(s.profiles))
	for n := range s.profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	s.names.Store(&out)
}

// Get returns the profile named name, or nil.
func (s *Session) Get(name string) *Loaded { return s.profiles[name] }

// Current returns the current profile, or nil when none is loaded.
func (s *Session) Current() *Loaded { return s.profiles[s.current] }

// Names returns the loaded profiles' names, sorted. It is safe to call
// from any goroutine, also while a cell runs.
func (s *Session) Names() []string {
	if p := s.names.Load(); p != nil {
		return slices.Clone(*p)
	}
	return nil
}

// UniqueName returns name, or name2, name3... when it is taken.
func (s *Session) UniqueName(name string) string {
	if s.Get(name) == nil {
		return name
	}
	for i := 2; ; i++ {
		if n := name + strconv.Itoa(i); s.Get(n) == nil {
			return n
		}
	}
}
