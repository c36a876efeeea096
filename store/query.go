package store

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseQuery parses TYPE{matcher,…}, where a matcher is NAME OP VALUE, OP
// one of = != =~ !~, and VALUE quoted ("…", Go escapes) or bare (up to the
// next , or }, blanks trimmed). The braces may be left out when there are
// no matchers. Errors give the column (1-based) and what was expected.
func ParseQuery(s string) (Query, error) {
	typ, _, braces := strings.Cut(s, "{")
	q := Query{Type: strings.TrimSpace(typ)}
	if q.Type == "" {
		return Query{}, queryError(s, 0, "a profile type first, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	}
	if i := strings.IndexAny(q.Type, "}\", "); i >= 0 {
		return Query{}, queryError(s, i, "a profile type without blanks, quotes or braces")
	}
	if !braces {
		return q, nil
	}
	p := &queryParser{s: s, i: len(typ) + 1}
	var err error
	q.Matchers, err = p.matchers()
	return q, err
}

type queryParser struct {
	s string
	i int // byte offset into s
}

func queryError(s string, i int, expected string) error {
	return fmt.Errorf("query %s: column %d: expected %s", s, i+1, expected)
}

func (p *queryParser) errorf(expected string) error { return queryError(p.s, p.i, expected) }

func (p *queryParser) blanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// matchers reads matchers up to the closing brace, which must end the query.
func (p *queryParser) matchers() ([]Matcher, error) {
	var out []Matcher
	for {
		p.blanks()
		if p.i < len(p.s) && p.s[p.i] == '}' && len(out) == 0 {
			p.i++
			break
		}
		m, err := p.matcher()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
		p.blanks()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		return nil, p.errorf(", or } after a label value")
	}
	if p.i != len(p.s) {
		return nil, p.errorf("the end of the query after }")
	}
	return out, nil
}

func (p *queryParser) matcher() (Matcher, error) {
	start := p.i
	for p.i < len(p.s) && labelChar(p.s[p.i], p.i == start) {
		p.i++
	}
	m := Matcher{Name: p.s[start:p.i]}
	if m.Name == "" {
		return Matcher{}, p.errorf("a label name (letters, digits, _ and .)")
	}
	p.blanks()
	for _, op := range []string{"=~", "!~", "!=", "="} {
		if strings.HasPrefix(p.s[p.i:], op) {
			m.Op, p.i = op, p.i+len(op)
			break
		}
	}
	if m.Op == "" {
		return Matcher{}, p.errorf("=, !=, =~ or !~ after the label name " + m.Name)
	}
	p.blanks()
	var err error
	m.Value, err = p.value()
	return m, err
}

func labelChar(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && (c == '.' || c >= '0' && c <= '9')
}

// value reads a quoted or a bare label value.
func (p *queryParser) value() (string, error) {
	if p.i < len(p.s) && p.s[p.i] == '"' {
		for j := p.i + 1; j < len(p.s); j++ {
			switch p.s[j] {
			case '\\':
				j++
			case '"':
				v, err := strconv.Unquote(p.s[p.i : j+1])
				if err != nil {
					return "", p.errorf("a label value in Go's quoting (" + err.Error() + ")")
				}
				p.i = j + 1
				return v, nil
			}
		}
		return "", p.errorf(`a closing " for the label value`)
	}
	end := strings.IndexAny(p.s[p.i:], ",}")
	if end < 0 {
		return "", p.errorf("a label value and a closing }")
	}
	v := strings.TrimSpace(p.s[p.i : p.i+end])
	p.i += end
	return v, nil
}
