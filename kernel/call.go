package kernel

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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

// option returns the declared option named name; asking for an undeclared
// option is a programming mistake and panics.
func (c *Call) option(name string) *Option {
	for i := range c.Cmd.Options {
		if c.Cmd.Options[i].Name == name {
			return &c.Cmd.Options[i]
		}
	}
	panic(fmt.Sprintf("kernel: command %s has no option %q", c.Cmd.Name, name))
}

// Opt returns the value of option name as given, or its declared default.
func (c *Call) Opt(name string) string {
	o := c.option(name)
	if v, ok := c.Opts[name]; ok {
		return v
	}
	return o.Default
}

// Has reports whether the user gave option name.
func (c *Call) Has(name string) bool {
	c.option(name)
	_, ok := c.Opts[name]
	return ok
}

// Int returns option name as an integer; a malformed value is a usage error.
func (c *Call) Int(name string) (int, error) {
	v := c.Opt(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, c.Usagef("%s=%s is not an integer: write e.g. %s=10", name, v, name)
	}
	return n, nil
}

// Float returns option name as a number; a trailing % divides by 100
// ("1%" is 0.01). A malformed value is a usage error.
func (c *Call) Float(name string) (float64, error) {
	v := c.Opt(name)
	f, err := ParseFloat(v)
	if err != nil {
		return 0, c.Usagef("%s=%s is not a number: write e.g. %s=0.5 or %s=1%%", name, v, name, name)
	}
	return f, nil
}

// ParseFloat parses a number, where a trailing % divides by 100.
func ParseFloat(v string) (float64, error) {
	s, pct := strings.CutSuffix(v, "%")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("parse number %q: %w", v, err)
	}
	if pct {
		f /= 100
	}
	return f, nil
}

// Bool returns option name as a boolean (true/false, yes/no, on/off, 1/0);
// anything else is a usage error.
func (c *Call) Bool(name string) (bool, error) {
	v := c.Opt(name)
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0", "":
		return false, nil
	}
	return false, c.Usagef("%s=%s is not a boolean: write %s=true or %s=false", name, v, name, name)
}

// Duration returns option name as a duration ("1.5s", "200ms"; a bare
// number is seconds); anything else is a usage error.
func (c *Call) Duration(name string) (time.Duration, error) {
	v := c.Opt(name)
	d, err := ParseDuration(v)
	if err != nil {
		return 0, c.Usagef("%s=%s is not a duration: write e.g. %s=1s or %s=250ms", name, v, name, name)
	}
	return d, nil
}

// ParseDuration parses a Go duration ("1m30s", "250ms"); a bare number is
// seconds.
func ParseDuration(v string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("parse duration %q: %w", v, err)
	}
	return d, nil
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
