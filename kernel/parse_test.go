package kernel

import (
	"errors"
	"strings"
	"testing"
)

// words renders statements as "line:word|word" lines, options marked by
// the position of their = ("key=value@3"), quoted words by a leading '.
func render(stmts []Stmt) string {
	var b strings.Builder
	for _, st := range stmts {
		var ws []string
		for _, w := range st.Words {
			s := w.Text
			if w.Quoted {
				s = "'" + s
			}
			if w.Eq >= 0 {
				s += "@" + string(rune('0'+w.Eq))
			}
			ws = append(ws, s)
		}
		b.WriteString(string(rune('0'+st.Line)) + ":" + strings.Join(ws, "|") + "\n")
	}
	return b.String()
}

func TestParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"echo hi", "1:echo|hi\n"},
		{"  echo   a\tb  ", "1:echo|a|b\n"},
		{"echo a\n\necho b\n", "1:echo|a\n3:echo|b\n"},
		{"# only a comment\necho x # trailing", "2:echo|x\n"},
		{"echo a#b", "1:echo|a#b\n"},
		{`echo "#not a comment"`, "1:echo|'#not a comment\n"},
		{`echo "a b" c`, "1:echo|'a b|c\n"},
		{`echo "say \"hi\"" "back\\slash" "keep\n"`, "1:echo|'say \"hi\"|'back\\slash|'keep\\n\n"},
		{`echo a"b c"d`, "1:echo|'ab cd\n"},
		{`echo ""`, "1:echo|'\n"},
		{"load x \\\n  as y", "1:load|x|as|y\n"},
		{"load x \\  \r\n as y\necho", "1:load|x|as|y\n3:echo\n"},
		{"echo a\\\nb", "1:echo|a|b\n"},
		{`echo a\b`, "1:echo|a\\b\n"},
		{"top n=5 by=cum", "1:top|n=5@1|by=cum@2\n"},
		{`top focus="a b"`, "1:top|'focus=a b@5\n"},
		{`top "focus=x"`, "1:top|'focus=x\n"},
		{"top f=a=b", "1:top|f=a=b@1\n"},
		{"echo \"two\nlines\" x\necho", "1:echo|'two\nlines|x\n3:echo\n"},
		{"echo # a comment with \\\necho b", "1:echo\n2:echo|b\n"},
		{"echo é ü", "1:echo|é|ü\n"},
		{"echo a\r\necho b", "1:echo|a\n2:echo|b\n"},
	}
	for _, tt := range tests {
		stmts, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error %v, want none", tt.in, err)
			continue
		}
		if got := render(stmts); got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParsePositions(t *testing.T) {
	stmts, err := Parse("echo  é \"b c\"\n\n  top n=1")
	if err != nil {
		t.Fatal(err)
	}
	type pos struct{ line, col, start, end int }
	want := []pos{{1, 1, 0, 4}, {1, 7, 6, 8}, {1, 9, 9, 14}, {3, 3, 18, 21}, {3, 7, 22, 25}}
	var got []pos
	for _, st := range stmts {
		for _, w := range st.Words {
			got = append(got, pos{w.Line, w.Col, w.Start, w.End})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d words, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("word %d at %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		msg       string
	}{
		{`echo "abc`, 1, 6, "unclosed quote"},
		{"echo ok\n  echo \"a\nb", 2, 8, "unclosed quote"},
		{`echo "a\"`, 1, 6, "unclosed quote"},
		{"echo a \\", 1, 8, "continues nothing"},
		{"echo a\necho b \\  ", 2, 8, "continues nothing"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Parse(%q) = %v, want line %d, column %d: ...%s...", tt.in, se, tt.line, tt.col, tt.msg)
		}
	}
}

// FuzzParse checks that Parse never panics, that positions point into the
// source, and that re-quoting the words and parsing again gives the same
// words; and that parameter expansion never panics on the words, leaves a
// word with every $ doubled as it was, and keeps an option's key apart
// from its value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"echo hi", `top n=5 focus="a b" # c`, "load x \\\n as y", `echo "a\"b\\"`, "\"", "é\\", "a\r\n#\n",
		"load $P n=${N} focus=a$ $$x ${"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		stmts, err := Parse(code)
		if err != nil {
			return
		}
		var lines []string
		var want []string
		for _, st := range stmts {
			var ws []string
			for _, w := range st.Words {
				if w.Start < 0 || w.End > len(code) || w.Start >= w.End {
					t.Fatalf("word %q at [%d,%d) outside %q", w.Text, w.Start, w.End, code)
				}
				ws = append(ws, requote(w.Text))
				want = append(want, w.Text)
				checkExpand(t, w)
			}
			lines = append(lines, strings.Join(ws, " "))
		}
		again, err := Parse(strings.Join(lines, "\n"))
		if err != nil {
			t.Fatalf("re-quoted %q: %v", lines, err)
		}
		var got []string
		for _, st := range again {
			for _, w := range st.Words {
				got = append(got, w.Text)
			}
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("round trip of %q: got %q, want %q", code, got, want)
		}
	})
}

// requote quotes every word, escaping \ and ", so the round trip does not
// depend on which words needed quotes.
func requote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// checkExpand is FuzzParse's property of parameter expansion on word w.
func checkExpand(t *testing.T, w Word) {
	none := func(string) (string, bool) { return "", false }
	if got, err := Expand(strings.ReplaceAll(w.Text, "$", "$$"), none); err != nil || got != w.Text {
		t.Fatalf("Expand of %q with $ doubled = %q, %v; want the word", w.Text, got, err)
	}
	every := func(name string) (string, bool) { return "=" + name + "$", true }
	st, err := expandStmt(Stmt{Words: []Word{w}}, every)
	if err != nil {
		t.Fatalf("expandStmt(%q) with every name set: %v", w.Text, err)
	}
	if e := st.Words[0]; (e.Eq >= 0) != (w.Eq >= 0) || e.Eq >= 0 && e.Text[:e.Eq] != mustExpand(t, w.Text[:w.Eq], every) {
		t.Fatalf("expandStmt(%q) = %q with = at %d: the option's key changed", w.Text, e.Text, e.Eq)
	}
}

func mustExpand(t *testing.T, s string, lookup func(string) (string, bool)) string {
	got, err := Expand(s, lookup)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
