package kernel

import (
	"errors"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// helpWord reports whether w is a help request "CMD?" (or IPython's
// "?CMD") and returns CMD.
func helpWord(w Word) (string, bool) {
	if w.Quoted || len(w.Text) < 2 {
		return "", false
	}
	if name, ok := strings.CutSuffix(w.Text, "?"); ok {
		return name, true
	}
	return strings.CutPrefix(w.Text, "?")
}

// lookupWord returns the command the first word names, or a usage error
// suggesting the nearest names.
func (t *CommandTable) lookupWord(w Word) (*Command, error) {
	if c := t.Lookup(w.Text); c != nil && !w.Quoted {
		return c, nil
	}
	return nil, t.unknownCommand(w.Text)
}

// LookupWord returns the command named by the word text, or a usage error
// suggesting the nearest names.
func (t *CommandTable) LookupWord(text string) (*Command, error) {
	return t.lookupWord(Word{Text: text})
}

func (t *CommandTable) unknownCommand(name string) error {
	names := make([]string, 0, len(t.sorted))
	for _, c := range t.sorted {
		names = append(names, c.Name)
	}
	if near := nearest(name, names); len(near) > 0 {
		return Usagef("unknown command %q: did you mean %s? (help lists all commands)", name, strings.Join(near, ", "))
	}
	return Usagef("unknown command %q: help lists all commands", name)
}

// optionWord splits a word key=value whose = is outside quotes and whose key
// looks like an option name.
func optionWord(w Word) (key, value string, ok bool) {
	if w.Eq <= 0 {
		return "", "", false
	}
	key = w.Text[:w.Eq]
	for i, r := range key {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '_' || r == '-')) {
			return "", "", false
		}
	}
	return key, w.Text[w.Eq+1:], true
}

// bind checks a statement against its command's declaration and returns
// the call, or a usage error generated from the command table.
func bind(st Stmt, s *Session) (*Call, error) {
	cmd, err := s.table.lookupWord(st.Words[0])
	if err != nil {
		return nil, err
	}
	c := &Call{Session: s, Cmd: cmd, Line: st.Line, Opts: map[string]string{}}
	words := st.Words[1:]
	if words, err = c.bindAs(words); err != nil {
		return nil, err
	}
	for _, w := range words {
		key, value, ok := optionWord(w)
		if !ok {
			c.Args = append(c.Args, w.Text)
			continue
		}
		if err := c.bindOption(key, value); err != nil {
			return nil, err
		}
	}
	if err := c.checkOptionKinds(); err != nil {
		return nil, err
	}
	if err := c.bindProfiles(); err != nil {
		return nil, err
	}
	if err := c.checkArity(); err != nil {
		return nil, err
	}
	return c, c.checkKinds()
}

// checkKinds checks the words of numeric and duration arguments.
func (c *Call) checkKinds() error {
	for i, v := range c.Args {
		a := c.Cmd.Args[min(i, len(c.Cmd.Args)-1)]
		if msg := kindProblem(a.Kind, v); msg != "" {
			return c.Usagef("%s %q %s", a.Name, v, msg)
		}
	}
	return nil
}

// checkOptionKinds checks the values of numeric, duration and regular
// expression options (before the profiles are bound: they do not depend
// on them).
func (c *Call) checkOptionKinds() error {
	for _, o := range c.Cmd.AllOptions() {
		if !c.Has(o.Name) {
			continue
		}
		for _, v := range c.All(o.Name) {
			if msg := kindProblem(o.Kind, v); msg != "" {
				return c.Usagef("%s=%s %s", o.Name, v, msg)
			}
		}
	}
	return nil
}

// kindProblem says what is wrong with v as a word of kind k, or "".
func kindProblem(k Kind, v string) string {
	switch k {
	case KindNumber:
		if _, err := ParseFloat(v); err != nil {
			return numberProblem(err) + ": write e.g. 10, 0.5 or 1%"
		}
	case KindRegexp:
		if _, err := regexp.Compile(v); err != nil {
			return "is not a regular expression: " + err.Error()
		}
	case KindDuration:
		d, err := ParseDuration(v)
		if errors.Is(err, errNotFinite) {
			return "is not a finite duration (NaN and infinities are not allowed): write e.g. 2s or 150ms"
		}
		if err != nil || d < 0 {
			return "is not a duration: write e.g. 2s or 150ms"
		}
	}
	return ""
}

// bindAs takes "as NAME" off words, wherever it stands after the command
// name, when the command allows it; an unquoted as followed by a word is a
// mistake for a command that does not name its result (unless its last
// argument takes every word, like echo's).
func (c *Call) bindAs(words []Word) ([]Word, error) {
	out := make([]Word, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.Text != "as" || w.Quoted {
			out = append(out, w)
			continue
		}
		switch {
		case !c.Cmd.AllowAs && i+1 < len(words) && c.Cmd.maxArgs() >= 0:
			return nil, c.Usagef("%s does not name its result: drop as %s", c.Cmd.Name, words[i+1].Text)
		case !c.Cmd.AllowAs:
			out = append(out, w)
		case i+1 == len(words) || words[i+1].Eq >= 0 && !words[i+1].Quoted:
			return nil, c.Usagef("as needs a NAME after it")
		case c.As != "":
			return nil, c.Usagef("as is given twice: keep one")
		default:
			c.As = words[i+1].Text
			i++
		}
	}
	return out, nil
}

func (c *Call) bindOption(key, value string) error {
	var o *Option
	opts := c.Cmd.AllOptions()
	names := make([]string, len(opts))
	for i := range opts {
		names[i] = opts[i].Name
		if names[i] == key {
			o = &opts[i]
		}
	}
	switch {
	case o == nil && len(names) == 0:
		return c.Usagef(`%s takes no options: quote the word ("%s=%s") to pass it as text`, c.Cmd.Name, key, value)
	case o == nil:
		hint := ""
		if near := nearest(key, names); len(near) > 0 {
			hint = "did you mean " + strings.Join(near, ", ") + "? "
		}
		return c.Usagef("unknown option %s: %soptions are %s", key, hint, strings.Join(names, ", "))
	case len(o.Values) > 0 && !slices.Contains(o.Values, value):
		return c.Usagef("%s=%s is not allowed: use one of %s", key, value, strings.Join(o.Values, ", "))
	}
	if _, dup := c.Opts[key]; dup && !o.Repeat {
		return c.Usagef("%s= is given twice: keep one", key)
	}
	if o.Repeat {
		if c.repeats == nil {
			c.repeats = map[string][]string{}
		}
		c.repeats[key] = append(c.repeats[key], value)
		if len(c.repeats[key]) > 1 {
			return nil
		}
	}
	c.Opts[key] = value
	return nil
}

// maxArgs returns the most positional words the command takes, or -1 for
// no limit.
func (c *Command) maxArgs() int {
	if n := len(c.Args); n > 0 && c.Args[n-1].Variadic {
		return -1
	}
	return len(c.Args)
}

// bindProfiles takes the leading profile names off the arguments: for a
// command of one profile, the first word when a profile has that name and
// enough words remain for the required arguments; for a command of two,
// the first two words, which must name loaded profiles (or, with its
// Within option, one profile as for a command of one).
func (c *Call) bindProfiles() error {
	switch {
	case c.Cmd.Profiles == 1, c.Cmd.Profiles == 2 && c.Within():
		return c.bindProfile()
	case c.Cmd.Profiles == 2:
		for i, role := range []string{"BASE", "NEW"} {
			if i >= len(c.Args) {
				return c.Usagef("missing %s: name two loaded profiles, BASE then NEW", role)
			}
			if c.Session.Get(c.Args[i]) == nil {
				return c.Usagef("%s: no profile is named %s; %s", role, c.Args[i], c.loadedNames(c.Args[i]))
			}
		}
		c.Named, c.Args = c.Args[:2:2], c.Args[2:]
	}
	return nil
}

// Within reports whether the call compares two parts of one profile: it
// gives its command's Within option.
func (c *Call) Within() bool {
	_, ok := c.Opts[c.Cmd.Within]
	return c.Cmd.Within != "" && ok
}

func (c *Call) bindProfile() error {
	if len(c.Args) == 0 {
		return nil
	}
	required := 0
	for _, a := range c.Cmd.Args {
		if !a.Optional {
			required++
		}
	}
	if c.Session.Get(c.Args[0]) != nil && len(c.Args)-1 >= required {
		c.Named, c.Args = c.Args[:1:1], c.Args[1:]
		return nil
	}
	if m := c.Cmd.maxArgs(); m >= 0 && len(c.Args) > m {
		return c.Usagef("no profile is named %s; %s", c.Args[0], c.loadedNames(c.Args[0]))
	}
	return nil
}

// loadedNames says which profiles are loaded, for an error about name.
func (c *Call) loadedNames(name string) string {
	if names := c.Session.Names(); len(names) > 0 {
		return "loaded are " + strings.Join(names, ", ")
	}
	return "none is loaded: use load PATH as " + name + " first"
}

func (c *Call) checkArity() error {
	if m := c.Cmd.maxArgs(); m >= 0 && len(c.Args) > m {
		extra := c.Args[m]
		if m == 0 {
			return c.Usagef("takes no arguments, but got %q", extra)
		}
		return c.Usagef("too many arguments: %q is one too many (quote words that hold spaces)", extra)
	}
	for i, a := range c.Cmd.Args {
		if i >= len(c.Args) && !a.Optional {
			return c.Usagef("missing %s", a.Name)
		}
	}
	return nil
}

// nearest returns up to three of names closest to word by edit distance,
// closest first; names sharing word as a prefix count as close.
func nearest(word string, names []string) []string {
	type cand struct {
		name string
		d    int
	}
	limit := max(2, len(word)/3)
	var cs []cand
	for _, n := range names {
		d := editDistance(strings.ToLower(word), strings.ToLower(n))
		if d <= limit || (len(word) >= 2 && strings.HasPrefix(n, word)) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	out := []string{}
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) between a and b, in runes.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
