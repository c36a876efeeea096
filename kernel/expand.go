package kernel

import (
	"fmt"
	"os"
	"strings"
)

// Parameters make a write-up re-runnable on other inputs: `set NAME VALUE`
// defines one, and $NAME or ${NAME} in any word of any later command stands
// for its value; an environment variable of the same name is the default,
// so that `PROFILE=new.pb.gz jupyter nbconvert --execute report.ipynb`
// re-runs a notebook on another profile. $$ is a literal $, and a $ that
// no name follows stays as it is (regular expressions end in $).

// ExpandError is a word naming a parameter that is neither set nor in the
// environment (the interpreter adds the line).
type ExpandError struct {
	Name string
	Col  int
}

func (e *ExpandError) Error() string {
	return fmt.Sprintf("$%s (column %d) is not set: set %s VALUE first, or give the environment variable %s",
		e.Name, e.Col, e.Name, e.Name)
}

// Param returns the value of parameter name: the one set in the session,
// else the environment variable's.
func (s *Session) Param(name string) (string, bool) {
	if v, ok := s.Settings.Params[name]; ok {
		return v, true
	}
	return os.LookupEnv(name)
}

// expandStmt returns st with the parameters in its words replaced by their
// values from lookup. An option word's key and value expand separately, so
// that a value holding "=" never makes a word an option.
func expandStmt(st Stmt, lookup func(string) (string, bool)) (Stmt, error) {
	out := Stmt{Line: st.Line, Words: make([]Word, len(st.Words))}
	for i, w := range st.Words {
		if !strings.Contains(w.Text, "$") {
			out.Words[i] = w
			continue
		}
		key, value := "", w.Text
		if w.Eq >= 0 {
			key, value = w.Text[:w.Eq], w.Text[w.Eq+1:]
		}
		k, err := Expand(key, lookup)
		if err == nil {
			value, err = Expand(value, lookup)
		}
		if name, ok := err.(undefinedName); ok {
			return Stmt{}, &ExpandError{Name: string(name), Col: w.Col}
		}
		if w.Eq >= 0 {
			w.Text, w.Eq = k+"="+value, len(k)
		} else {
			w.Text = value
		}
		out.Words[i] = w
	}
	return out, nil
}

// undefinedName is Expand's error: the name of a parameter lookup lacks.
type undefinedName string

func (n undefinedName) Error() string { return "$" + string(n) + " is not set" }

// Expand replaces $NAME and ${NAME} in s by lookup's values (a NAME is a
// letter or _ followed by letters, digits and _), $$ by $, and leaves any
// other $ as it is. A name lookup does not know is an error.
func Expand(s string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		name, n := paramAt(s[i+1:])
		switch {
		case strings.HasPrefix(s[i+1:], "$"):
			b.WriteByte('$')
			n = 1
		case name == "":
			b.WriteByte('$')
		default:
			v, ok := lookup(name)
			if !ok {
				return "", undefinedName(name)
			}
			b.WriteString(v)
		}
		s = s[i+1+n:]
	}
}

// paramAt returns the parameter name at the start of s, NAME or {NAME}, and
// how many bytes it takes; "" when none is there.
func paramAt(s string) (string, int) {
	if rest, ok := strings.CutPrefix(s, "{"); ok {
		end := strings.IndexByte(rest, '}')
		if end > 0 && nameLen(rest) == end {
			return rest[:end], end + 2
		}
		return "", 0
	}
	n := nameLen(s)
	return s[:n], n
}

// nameLen is the length of the parameter name at the start of s.
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return i
		}
	}
	return len(s)
}

// ValidParam reports whether name can be set and used as $name.
func ValidParam(name string) bool { return name != "" && nameLen(name) == len(name) }
