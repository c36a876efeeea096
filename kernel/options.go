package kernel

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The option helpers read a call's key=value options as typed values. Each
// returns a usage error that names the option, says what was wrong and
// shows a value that would do.

// errNotFinite is the error of NaN and the infinities, which no option
// takes.
var errNotFinite = errors.New("NaN and infinities are not allowed: write a finite number")

// Opt returns the value of option name as given, or its declared default.
func (c *Call) Opt(name string) string {
	o := c.option(name)
	if v, ok := c.Opts[name]; ok {
		return v
	}
	return o.Default
}

// All returns every value given to a Repeat option, in order; the
// default alone when none was given.
func (c *Call) All(name string) []string {
	if vs := c.repeats[name]; len(vs) > 0 {
		return vs
	}
	if v := c.Opt(name); v != "" {
		return []string{v}
	}
	return nil
}

// Has reports whether the user gave option name.
func (c *Call) Has(name string) bool {
	c.option(name)
	_, ok := c.Opts[name]
	return ok
}

// option returns the declared option named name; asking for an undeclared
// option is a programming mistake and panics.
func (c *Call) option(name string) *Option {
	opts := c.Cmd.AllOptions()
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	panic(fmt.Sprintf("kernel: command %s has no option %q", c.Cmd.Name, name))
}

// Int returns option name as an integer.
func (c *Call) Int(name string) (int, error) {
	v := c.Opt(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, c.Usagef("%s=%s is not an integer: write e.g. %s=10", name, v, name)
	}
	return n, nil
}

// PositiveInt returns option name as an integer of at least 1.
func (c *Call) PositiveInt(name string) (int, error) {
	n, err := c.Int(name)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, c.Usagef("%s=%d: want at least 1", name, n)
	}
	return n, nil
}

// Float returns option name as a finite number; a trailing % divides by
// 100 ("1%" is 0.01).
func (c *Call) Float(name string) (float64, error) {
	v := c.Opt(name)
	f, err := ParseFloat(v)
	if err != nil {
		return 0, c.Usagef("%s=%s %s: write e.g. %s=0.5 or %s=1%%", name, v, numberProblem(err), name, name)
	}
	return f, nil
}

// Percent returns option name as a percentage between 0 and 100, written
// with or without a trailing % ("1" and "1%" are both one percent).
func (c *Call) Percent(name string) (float64, error) {
	v := c.Opt(name)
	f, err := ParseFloat(strings.TrimSuffix(v, "%"))
	if err != nil || f < 0 || f > 100 {
		return 0, c.Usagef("%s=%s: write a percentage between 0 and 100, e.g. %s=1%%", name, v, name)
	}
	return f, nil
}

// ParseFloat parses a finite number, where a trailing % divides by 100.
// NaN and the infinities are errors (errNotFinite): no option means them.
func ParseFloat(v string) (float64, error) {
	s, pct := strings.CutSuffix(v, "%")
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		err = errNotFinite
	}
	if err != nil {
		return 0, fmt.Errorf("parse number %q: %w", v, err)
	}
	if pct {
		f /= 100
	}
	return f, nil
}

// numberProblem says why ParseFloat refused a word.
func numberProblem(err error) string {
	if errors.Is(err, errNotFinite) {
		return "is not a finite number (NaN and infinities are not allowed)"
	}
	return "is not a number"
}

// Bool returns option name as a boolean (true/false, yes/no, on/off, 1/0).
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
// number is seconds).
func (c *Call) Duration(name string) (time.Duration, error) {
	v := c.Opt(name)
	d, err := ParseDuration(v)
	if err != nil {
		return 0, c.Usagef("%s=%s is not a duration: write e.g. %s=1s or %s=250ms", name, v, name, name)
	}
	return d, nil
}

// ParseDuration parses a Go duration ("1m30s", "250ms"); a bare number is
// seconds. NaN, the infinities and durations beyond about 292 years (what
// time.Duration holds) are errors.
func ParseDuration(v string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxInt64/float64(time.Second) {
			return 0, fmt.Errorf("parse duration %q: %w", v, errNotFinite)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("parse duration %q: %w", v, err)
	}
	return d, nil
}

// sizeUnits are the suffixes ParseSize accepts, longest first.
var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// ParseSize parses a byte count from 1 to 2^62, such as 512MiB, 2GB or
// 1048576.
func ParseSize(s string) (int64, error) {
	low := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(low, u.suffix) {
			low, factor = strings.TrimSuffix(low, u.suffix), u.factor
			break
		}
	}
	f, err := ParseFloat(strings.TrimSpace(low))
	if err != nil || !(f > 0 && f*float64(factor) <= 1<<62) || strings.HasSuffix(low, "%") {
		return 0, fmt.Errorf("not a size: write e.g. limit=512MiB or limit=4GB")
	}
	if f*float64(factor) < 1 {
		return 0, fmt.Errorf("less than one byte: write e.g. limit=512MiB or limit=4GB")
	}
	return int64(f * float64(factor)), nil
}

// ParseCount parses a positive count of at most 2^62, such as 65536, 2k or
// 10M (decimal units: k = 10^3, M = 10^6, G = 10^9).
func ParseCount(s string) (int64, error) {
	low := strings.ToLower(strings.TrimSpace(s))
	factor := 1.0
	for _, u := range []struct {
		suffix string
		factor float64
	}{{"k", 1e3}, {"m", 1e6}, {"g", 1e9}} {
		if strings.HasSuffix(low, u.suffix) {
			low, factor = strings.TrimSuffix(low, u.suffix), u.factor
			break
		}
	}
	f, err := ParseFloat(low)
	if err != nil || !(f >= 1 && f*factor <= 1<<62) {
		return 0, fmt.Errorf("not a count: write e.g. 65536, 2k or 10M")
	}
	return int64(f * factor), nil
}

// Regexp compiles option name; it returns nil when the option is empty.
func (c *Call) Regexp(name string) (*regexp.Regexp, error) {
	s := c.Opt(name)
	if s == "" {
		return nil, nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, c.Usagef("%s=%s is not a regular expression: %v", name, s, err)
	}
	return re, nil
}
