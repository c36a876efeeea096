package kernel

import (
	"context"
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
// runs every example. The commands of the language are listed in
// commands.go.
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
	// Tree says the command reads its profile's call tree: Register adds
	// the tree options (focus, ignore, hide, value; see filter.go) to
	// Options, and Call.Tree and Call.View give the tree under the
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

	repeats map[string][]string // every value of a Repeat option, in order
	filter  analysis.Filter     // the call's own focus, ignore and hide (a Tree command)
	value   int                 // the value type the call reads (a Tree command)
	tree    *analysis.Tree
	view    *compaction.View
}

var registry = map[string]*Command{}

// Register adds a command; it panics on a duplicate name (a programming
// mistake, found at start-up). A Tree command gets the tree options.
func Register(c *Command) {
	if _, dup := registry[c.Name]; dup {
		panic("kernel: duplicate command " + c.Name)
	}
	if c.Tree {
		c.Options = append(c.Options[:len(c.Options):len(c.Options)], treeOptions...)
	}
	registry[c.Name] = c
}

// Lookup returns the command named name, or nil.
func Lookup(name string) *Command { return registry[name] }

// Commands returns every command, sorted by name.
func Commands() []*Command {
	out := make([]*Command, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
