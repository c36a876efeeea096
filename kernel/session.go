package kernel

import (
	"slices"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/store"
)

// Loaded is a profile in the session, with everything the user has set on it.
type Loaded struct {
	Name    string
	Profile *analysis.Profile // as loaded
	Filter  analysis.Filter   // the standing filter (filter.go); zero for none
	// Recursion is the recursion folded out of the tree
	// (collapse-recursion); zero for none.
	Recursion analysis.Recursion
	Tree      *analysis.Tree    // the call tree of Profile under Filter and Recursion: what commands read
	Value     int               // value type index shown by default
	State     *compaction.State // granularity state the user set (level, expand, compact); nil until then
	View      *compaction.View  // cached compacted tree of State and Value (see CompactedView)
	Picture   []byte            // the last SVG drawn for this profile, for export
	Cels      []byte            // the last cels player, as an HTML page, for export (avid.go)
	Mapping   *avid.Mapping     // the mapping its frames are named by (level using=), or nil
	Drawn     *compaction.View  // the view of the last picture, to outline what changed since (cmd_pictures.go)
	Phases    *PhaseState       // the last phases run and the user's labels (cmd_phases.go)
	// DiffBase is, for a difference made by diff that go tool pprof
	// -diff_base=DiffBase Profile.Source makes the same, BASE's source; "".
	DiffBase string

	initial *compaction.State // the state read while State is nil: level 1 (profileState)
	full    *compaction.View  // the view at full names, for FullNames commands while State is nil
}

// Session is the state of one kernel process or one `proflens run`: the
// loaded profiles and the current one. It survives failed and panicking
// commands.
type Session struct {
	Dir      string // directory that relative paths are resolved against
	Settings Settings
	profiles map[string]*Loaded
	current  string
	loads    int                      // profiles loaded so far, for default names
	displays int                      // progress lines shown so far, for unique display ids (progress.go)
	mappings map[string]*avid.Mapping // defined by the mapping command (avid.go)
	// names is a copy of the profile names, replaced on every change, so
	// that completion can read them while a cell runs.
	names atomic.Pointer[[]string]
	// stores holds what each store listed held, for completion
	// (storecatalog.go).
	stores map[string]*store.Catalog
	// live are the attachments feeding profiles (live.go), by main name.
	live map[string]*attachment
}

// NewSession returns an empty session resolving paths against dir.
func NewSession(dir string) *Session {
	return &Session{Dir: dir, profiles: map[string]*Loaded{}, Settings: defaultSettings(), live: map[string]*attachment{}}
}

// Add stores l under l.Name (replacing a profile of the same name) and makes
// it current.
func (s *Session) Add(l *Loaded) {
	s.profiles[l.Name] = l
	s.current = l.Name
	s.loads++
	s.snapshot()
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

// uniqueName returns name, or name2, name3... when it is taken.
func uniqueName(s *Session, name string) string {
	if s.Get(name) == nil {
		return name
	}
	for i := 2; ; i++ {
		if n := name + strconv.Itoa(i); s.Get(n) == nil {
			return n
		}
	}
}
