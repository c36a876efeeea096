package kernel

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// Usagef returns a usage error (ename "UsageError"): the user called a
// command wrongly. The message should say what was wrong and what to do.
func Usagef(format string, args ...any) *jupyter.Error {
	return &jupyter.Error{Name: "UsageError", Value: fmt.Sprintf(format, args...)}
}

// Usagef returns a usage error about this call; the message is prefixed with
// the command's name and followed by its usage line.
func (c *Call) Usagef(format string, args ...any) *jupyter.Error {
	msg := fmt.Sprintf(format, args...)
	return Usagef("%s: %s (usage: %s)", c.Cmd.Name, msg, usageLine(c.Cmd))
}

// Arg returns the i-th positional word, or "" when there are fewer.
func (c *Call) Arg(i int) string {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return ""
}

// resolve finds the profiles the call reads (Command.Profiles) and, for a
// command that reads a tree, its filter and value type (the profile's for
// other commands). It runs before Run, so that no command repeats it.
func (c *Call) resolve() error {
	c.Profiles = nil
	for _, name := range c.Named {
		l := c.Session.Get(name)
		if l == nil {
			return fmt.Errorf("no profile named %s: loaded are %s", name, strings.Join(c.Session.Names(), ", "))
		}
		c.Profiles = append(c.Profiles, l)
	}
	if (c.Cmd.Profiles == 1 || c.Within()) && len(c.Named) == 0 {
		l := c.Session.Current()
		if l == nil {
			return fmt.Errorf("no profile loaded: use load PATH first")
		}
		c.Profiles = []*Loaded{l}
	}
	if c.Within() {
		c.Profiles = append(c.Profiles, c.Profiles[0]) // one profile is BASE and NEW
	}
	if len(c.Profiles) > 0 {
		c.value = c.Profile().Value
	}
	if !c.Cmd.Tree {
		return nil
	}
	var err error
	if c.filter, err = c.ReadFilter(); err != nil {
		return err
	}
	if c.grain, err = c.readGranularity(); err != nil {
		return c.Usagef("%v", err)
	}
	c.value, err = c.ReadValue(c.Profile())
	return err
}

// NewCall returns a call of cmd on l made outside a statement (a live
// profile's phases run again when it grows): it reads l's tree and value
// type, with no options of its own.
func NewCall(ctx context.Context, s *Session, cmd *Command, l *Loaded) *Call {
	return &Call{Ctx: ctx, Session: s, Cmd: cmd, Profiles: []*Loaded{l}, value: l.Value}
}

// Profile returns the profile the call reads: the named or the current
// one; BASE for a command of two profiles.
func (c *Call) Profile() *Loaded { return c.Profiles[0] }

// Path resolves p against the session's directory; absolute paths are
// returned cleaned.
func (c *Call) Path(p string) string { return c.Session.Path(p) }

// Print writes text to stdout.
func (c *Call) Print(text string) { c.Out.Stream("stdout", text) }

// Printf formats to stdout.
func (c *Call) Printf(format string, args ...any) { c.Print(fmt.Sprintf(format, args...)) }

// Path resolves p against the session's directory.
func (s *Session) Path(p string) string {
	if filepath.IsAbs(p) || s.Dir == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(s.Dir, p)
}
