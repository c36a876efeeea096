package kernel

import (
	"context"
	"sort"

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
)

// Arg is a positional argument of a command.
type Arg struct {
	Name     string // as shown in usage: PATH, NAME, N
	Doc      string
	Kind     Kind
	Optional bool
	Variadic bool // takes the rest of the words
	// Complete, when set, proposes completions for a word of this argument
	// that starts with prefix (for example compacted-node handles for a
	// KindTarget). It runs only when no cell is executing.
	Complete func(c *Call, prefix string) []string
}

// Option is a key=value option of a command.
type Option struct {
	Name    string
	Doc     string
	Default string   // shown in help; "" when none
	Values  []string // the allowed values, when they are a fixed set
	Kind    Kind
	// Complete, when set, proposes values starting with prefix, like
	// Arg.Complete.
	Complete func(c *Call, prefix string) []string
}

// Command is one command of the language. Help, usage errors, completion and
// inspect are generated from these values, and a test runs every example.
type Command struct {
	Name    string
	Summary string // one line
	Usage   string // e.g. "load PATH [as NAME] [format=F]"
	Doc     string // markdown paragraphs after the summary
	Args    []Arg
	Options []Option
	// Examples are runnable lines. The docs test runs each command's
	// examples in order in one fresh session whose Dir is an empty
	// temporary directory, so they must be self-contained (use demo:
	// profiles) and must succeed.
	Examples []string
	// ProfileArg says the first positional word may name a loaded profile
	// (defaulting to the current one); Call.Loaded resolves it.
	ProfileArg bool
	// AllowAs says the command accepts "as NAME".
	AllowAs bool
	Run     func(c *Call) error
}

// Call is one parsed invocation of a command.
type Call struct {
	Ctx     context.Context
	Session *Session
	Cmd     *Command
	Line    int               // 1-based line of the cell where the command starts
	Args    []string          // positional words, quotes removed
	Opts    map[string]string // key=value options, checked against Cmd.Options
	As      string            // the name after "as", or ""
	Out     jupyter.Output
	// Profile is the profile name given as the first word when
	// Cmd.ProfileArg, or "" for the current profile.
	Profile string
}

var registry = map[string]*Command{}

// Register adds a command; it panics on a duplicate name (a programming
// mistake, found at start-up).
func Register(c *Command) {
	if _, dup := registry[c.Name]; dup {
		panic("kernel: duplicate command " + c.Name)
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
