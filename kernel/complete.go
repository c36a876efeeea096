package kernel

import (
	"context"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/proflens/proflens/kernel/jupyter"
)

// byteOffset converts a cursor in code points (as the protocol counts) to a
// byte offset into code.
func byteOffset(code string, cursor int) int {
	b := 0
	for i := 0; i < cursor && b < len(code); i++ {
		_, n := utf8.DecodeRuneInString(code[b:])
		b += n
	}
	return b
}

// Complete implements jupyter.Handler. It completes command names, option
// names (key=), option values, file paths, loaded profile names and
// whatever an argument's Complete hook proposes. Hooks run only when no cell
// is running; Complete never waits for one.
func (in *Interp) Complete(code string, cursor int) jupyter.Completion {
	b := byteOffset(code, cursor)
	l := lex(code[:b])
	words, start, prefix := l.tail.Words, b, ""
	if !l.space && len(words) > 0 {
		w := words[len(words)-1]
		words, start, prefix = words[:len(words)-1], w.Start, w.Text
	}
	var found []match
	if len(words) == 0 {
		found = commandNames(in.s.table, prefix)
	} else if cmd := in.s.table.Lookup(words[0].Text); cmd != nil {
		found = in.completeWord(cmd, words[1:], prefix)
	}
	c := jupyter.Completion{
		Matches:     []string{},
		CursorStart: utf8.RuneCountInString(code[:start]),
		CursorEnd:   cursor,
	}
	var types []map[string]any
	for _, m := range found {
		text := quoteIfNeeded(m.text)
		if slices.Contains(c.Matches, text) {
			continue
		}
		c.Matches = append(c.Matches, text)
		types = append(types, map[string]any{"start": c.CursorStart, "end": cursor, "text": text, "type": m.typ})
	}
	// JupyterLab shows these types next to the matches.
	c.Metadata = map[string]any{"_jupyter_types_experimental": types}
	if types == nil {
		c.Metadata = map[string]any{}
	}
	return c
}

// match is one completion and its kind, shown by JupyterLab: "command",
// "option", "value", "path", "profile" or "target".
type match struct{ text, typ string }

func quoteIfNeeded(s string) string {
	if !strings.ContainsAny(s, " \t\"#\\") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func commandNames(t *CommandTable, prefix string) []match {
	var out []match
	for _, c := range t.Commands() {
		if strings.HasPrefix(c.Name, prefix) {
			out = append(out, match{c.Name, "command"})
		}
	}
	return out
}

// completeWord completes the word after words (the command's earlier words).
func (in *Interp) completeWord(cmd *Command, words []Word, prefix string) []match {
	if n := len(words); n > 0 && cmd.AllowAs && words[n-1].Text == "as" && !words[n-1].Quoted {
		return nil // a new name
	}
	c := &Call{Ctx: context.Background(), Session: in.s, Cmd: cmd, Opts: map[string]string{}, Out: &Recorder{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch k, v, ok := optionWord(w); {
		case ok:
			c.Opts[k] = v
		case cmd.AllowAs && w.Text == "as" && !w.Quoted:
			i++ // as NAME: no positional word
		default:
			c.Args = append(c.Args, w.Text)
		}
	}
	in.takeNames(c)
	if k, v, ok := optionWord(Word{Text: prefix, Eq: strings.IndexByte(prefix, '=')}); ok {
		opts := cmd.AllOptions()
		for i := range opts {
			if o := &opts[i]; o.Name == k {
				return withPrefix(k+"=", in.values(c, o.Kind, o.Values, o.Complete, v))
			}
		}
		return nil
	}
	out := in.positional(c, prefix)
	for _, o := range cmd.AllOptions() {
		if _, given := c.Opts[o.Name]; !given && strings.HasPrefix(o.Name+"=", prefix) {
			out = append(out, match{o.Name + "=", "option"})
		}
	}
	return out
}

// takeNames moves the leading words of c that name loaded profiles to
// c.Named, as binding would: the first two words of a command of two
// profiles, the first word of a command of one when a profile has that
// name.
func (in *Interp) takeNames(c *Call) {
	switch n := len(c.Args); {
	case c.Cmd.Profiles == 2 && n >= 2:
		c.Named, c.Args = c.Args[:2], c.Args[2:]
	case c.Cmd.Profiles == 1 && n >= 1 && slices.Contains(in.s.Names(), c.Args[0]):
		c.Named, c.Args = c.Args[:1], c.Args[1:]
	}
}

// positional completes the next positional word of c: a profile name
// where one may stand, then the command's arguments.
func (in *Interp) positional(c *Call, prefix string) []match {
	var out []match
	switch {
	case c.Cmd.Profiles == 2 && len(c.Named) < 2:
		return in.values(c, KindProfile, nil, nil, prefix)
	case c.Cmd.Profiles == 1 && len(c.Named) == 0 && len(c.Args) == 0:
		out = in.values(c, KindProfile, nil, nil, prefix)
	}
	idx, args := len(c.Args), c.Cmd.Args
	if n := len(args); n > 0 && idx >= n && args[n-1].Variadic {
		idx = n - 1
	}
	if idx < len(args) {
		a := args[idx]
		out = append(out, in.values(c, a.Kind, nil, a.Complete, prefix)...)
	}
	return out
}

// values proposes values of a kind starting with prefix.
func (in *Interp) values(c *Call, kind Kind, fixed []string, hook func(*Call, string) []string, prefix string) []match {
	var out []match
	add := func(typ string, vs []string) {
		for _, v := range vs {
			if strings.HasPrefix(v, prefix) {
				out = append(out, match{v, typ})
			}
		}
	}
	add("value", fixed)
	switch kind {
	case KindFile:
		add("path", files(in.s, prefix))
	case KindProfile:
		add("profile", in.s.Names())
	case KindCommand:
		out = append(out, commandNames(in.s.table, prefix)...)
	}
	if hook != nil && in.mu.TryLock() {
		defer in.mu.Unlock()
		typ := "value"
		if kind == KindTarget {
			typ = "target"
		}
		if c.resolve() == nil {
			add(typ, hook(c, prefix))
		}
	}
	return out
}

func withPrefix(p string, ms []match) []match {
	for i := range ms {
		ms[i].text = p + ms[i].text
	}
	return ms
}

// files lists the paths starting with prefix, relative to the session's
// directory; directories end with /. Hidden files show only when the prefix
// names them.
func files(s *Session, prefix string) []string {
	dir, base := "", prefix
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir, base = prefix[:i+1], prefix[i+1:]
	}
	path := s.Path(dir)
	if dir == "" {
		path = s.Path(".")
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		out = append(out, dir+name)
		if len(out) == 200 {
			break
		}
	}
	return out
}

// Inspect implements jupyter.Handler: the doc of the command under the
// cursor (or of the command named by help's argument there).
func (in *Interp) Inspect(code string, cursor int, detail int) jupyter.Bundle {
	b := byteOffset(code, cursor)
	st, ok := stmtAt(code, b)
	if !ok {
		return nil
	}
	t := in.s.table
	cmd := t.commandOf(st.Words[0])
	for _, w := range st.Words[1:] {
		if cmd != nil && cmd.Name == "help" && w.Start <= b && b <= w.End && t.Lookup(w.Text) != nil {
			cmd = t.Lookup(w.Text)
		}
	}
	if cmd == nil {
		return nil
	}
	h := HelpBundle(cmd)
	return jupyter.Bundle{"text/plain": h["text/plain"], "text/markdown": h["text/markdown"]}
}

// commandOf returns the command a statement's first word names, also in
// the form CMD?.
func (t *CommandTable) commandOf(w Word) *Command {
	if name, ok := helpWord(w); ok {
		return t.Lookup(name)
	}
	if w.Quoted {
		return nil
	}
	return t.Lookup(w.Text)
}

// stmtAt returns the statement the byte offset b is in or just after (on the
// same line).
func stmtAt(code string, b int) (Stmt, bool) {
	l := lex(code)
	for i := len(l.stmts) - 1; i >= 0; i-- {
		st := l.stmts[i]
		if st.Words[0].Start > b {
			continue
		}
		end := st.Words[len(st.Words)-1].End
		return st, b <= end || !strings.Contains(code[end:b], "\n")
	}
	return Stmt{}, false
}

// IsComplete implements jupyter.Handler: "incomplete" for an unclosed quote,
// a trailing \ or an open << block, "invalid" when a line names no command,
// else "complete".
func (in *Interp) IsComplete(code string) (status, indent string) {
	l := lex(code)
	if l.open || l.cont || l.block {
		return "incomplete", ""
	}
	for _, st := range l.stmts {
		if in.s.table.commandOf(st.Words[0]) == nil {
			return "invalid", ""
		}
	}
	return "complete", ""
}
