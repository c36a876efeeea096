package kernel

import (
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

// Loaded returns the profile the call is about: the one named by the
// leading NAME word (Cmd.ProfileArg), else the current one.
func (c *Call) Loaded() (*Loaded, error) {
	if c.Profile != "" {
		if l := c.Session.Get(c.Profile); l != nil {
			return l, nil
		}
		return nil, fmt.Errorf("no profile named %s: loaded are %s", c.Profile, strings.Join(c.Session.Names(), ", "))
	}
	if l := c.Session.Current(); l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("no profile loaded: use load PATH first")
}

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
