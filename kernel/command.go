package kernel

import (
	"context"
	"slices"
	"sort"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel/jupyter"
)

// Kind says what a word names, for completion and checking.
type Kind uint8

const (
	KindText    Kind = iota // free text
	KindFile                // a file path (completed from the file system)
	KindProfile             // a loaded profile's name
	KindTarget              // a compacted node: handle, "a > b" path, or all
	KindCommand             // a command name
	KindNumber
	KindDuration
	KindRegexp // a regular expression (compiled when the call is bound)
	KindValue  // a value type of the profile (cpu, alloc_space...)
)

// placeholders stand for a word of a kind in usage lines.
var placeholders = map[Kind]string{KindFile: "FILE", KindProfile: "NAME", KindTarget: "TARGET",
	KindCommand: "CMD", KindNumber: "N", KindDuration: "D", KindRegexp: "RE", KindValue: "TYPE"}

// Arg is a positional argument of a command.
type Arg struct {
	Name     string // as shown in usage: PATH, NAME, N
	Doc      string
	Kind     Kind
	Optional bool
	Variadic bool // takes the rest of the words
	// Complete, when set, proposes completions for a word of this argument
	// that starts with prefix (for example compacted-node handles for a
	// KindTarget). It runs only when no cell is executing, on a call whose
	// profiles are resolved.
	Complete func(c *Call, prefix string) []string
}

// Option is a key=value option of a command.
type Option struct {
	Name    string
	Doc     string
	Default string   // shown in help; "" when none
	Values  []string // the allowed values, when they are a fixed set
	Kind    Kind
	// Repeat says the option may be given more than once (phase=2
	// phase=5): Call.All returns every value, Call.Opt the first.
	Repeat bool
	// Complete, when set, proposes values starting with prefix, like
	// Arg.Complete.
	Complete func(c *Call, prefix string) []string
}

// Command is one command of the language. Its usage line, help, usage
// errors, completion and inspect are generated from this value, and a test
// runs every example. The engine knows the commands of the CommandTable it was
// given.
type Command struct {
	Name    string
	Summary string // one line
	Doc     string // markdown paragraphs after the summary
	Args    []Arg  // the positional words after the profile names
	Options []Option
	// Examples are runnable lines. The docs test runs each command's
	// examples in order in one fresh session whose Dir is an empty
	// temporary directory, so they must be self-contained (use demo:
	// profiles) and must succeed.
	Examples []string
	// Profiles is how many loaded profiles the command reads, named by its
	// first words: 0; 1, an optional NAME that defaults to the current
	// profile; or 2, BASE and NEW, both required. They are resolved
	// before Run (Call.Profile, Call.Profiles).
	Profiles int
	// Within, for a command of two profiles, names an option that compares
	// two parts of one profile instead (diff NAME phase=2 phase=5): when
	// the call gives it, the first word may name one profile (default: the
	// current one), which is then both BASE and NEW.
	Within string
	// Tree says the command reads its profile's call tree: it takes the
	// tree options (focus, ignore, hide, value, granularity; see filter.go
	// and granularity.go) besides
	// Options (AllOptions), and Call.Tree and Call.View give the tree under the
	// profile's standing filter and the call's own.
	Tree bool
	// FullNames says the command reads the tree at full names until the
	// user sets a level on the profile (level, expand, compact): a flame
	// graph user expects function names, as top and tree show them.
	FullNames bool
	// AllowAs says the command accepts "as NAME" among its words.
	AllowAs bool
	Run     func(c *Call) error
}

// AllOptions returns the options the command takes: its Options, then the
// tree options for a Tree command.
func (c *Command) AllOptions() []Option {
	if !c.Tree {
		return c.Options
	}
	return append(c.Options[:len(c.Options):len(c.Options)], treeOptions...)
}

// Call is one parsed invocation of a command.
type Call struct {
	Ctx     context.Context
	Session *Session
	Cmd     *Command
	Line    int               // 1-based line of the cell where the command starts
	Args    []string          // positional words after the profile names, quotes removed
	Opts    map[string]string // key=value options, checked against Cmd.Options
	As      string            // the name after "as", or ""
	Out     jupyter.Output
	// Named are the profile names the first words gave: Cmd.Profiles of
	// them, or none when a command of one profile reads the current one.
	Named []string
	// Profiles are the profiles the command reads, resolved before Run:
	// for a command of one profile the named or the current one, for a
	// command of two BASE and NEW.
	Profiles []*Loaded

	repeats map[string][]string  // every value of a Repeat option, in order
	filter  analysis.Filter      // the call's own focus, ignore and hide (a Tree command)
	grain   analysis.Granularity // the granularity the call reads its tree at (a Tree command)
	value   int                  // the value type the call reads (a Tree command)
	tree    *analysis.Tree
	view    *compaction.View
	interp  *Interp              // the interpreter running the call (explore.go)
	opener  jupyter.WidgetOpener // the cell's, when its front end can show widgets; nil otherwise
}

// CommandTable is the commands of the language as the engine binds, completes and
// documents them, and what the commands run outside a call (Hooks). The
// engine has no command of its own: New takes its table.
type CommandTable struct {
	byName map[string]*Command
	sorted []*Command
	hooks  Hooks
}

// Hooks are what a table's commands run for a session outside a call.
type Hooks struct {
	// Sync runs before each statement is bound, in the cell's goroutine:
	// work done in the background (live windows) joins the session there,
	// so a command never sees a profile change under it. Nil for none.
	Sync func(ctx context.Context, s *Session)
	// Close ends what the commands left running for s (live collections);
	// Session.Close calls it. Nil for none.
	Close func(s *Session)
}

// NewCommandTable returns the table of cmds with hooks h; a duplicate name
// panics (a programming mistake, found at start-up).
func NewCommandTable(h Hooks, cmds ...*Command) *CommandTable {
	t := &CommandTable{byName: map[string]*Command{}, hooks: h}
	for _, c := range cmds {
		if _, dup := t.byName[c.Name]; dup {
			panic("kernel: duplicate command " + c.Name)
		}
		t.byName[c.Name] = c
		t.sorted = append(t.sorted, c)
	}
	sort.Slice(t.sorted, func(i, j int) bool { return t.sorted[i].Name < t.sorted[j].Name })
	return t
}

// With returns a table of t's commands and hooks and of cmds besides (a
// duplicate name panics): for tests, and for programs that add commands.
func (t *CommandTable) With(cmds ...*Command) *CommandTable {
	return NewCommandTable(t.hooks, append(slices.Clone(t.sorted), cmds...)...)
}

// Lookup returns the command named name, or nil.
func (t *CommandTable) Lookup(name string) *Command { return t.byName[name] }

// Commands returns every command, sorted by name.
func (t *CommandTable) Commands() []*Command { return t.sorted }
