package kernel_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// A line ending with << opens a block whose lines, as written, become the
// statement's last word, up to a line holding only end.
func TestParseBlock(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mapping m <<\nJDK class java.*\n# a comment stays\nend\necho after",
			"1:mapping|m|'JDK class java.*\n# a comment stays\n5:echo|after\n"},
		{"mapping m <<\n  a \"x\" = y \\\n  end  \r\n", "1:mapping|m|'  a \"x\" = y \\\n"},
		{"mapping m <<\nend", "1:mapping|m|'\n"},
		{"mapping m <<\r\nA class a.*\r\nB class b.*\r\nend\r\n", "1:mapping|m|'A class a.*\nB class b.*\n"},
		{`echo "<<"` + "\necho b", "1:echo|'<<\n2:echo|b\n"}, // a quoted << opens nothing
		{"echo a << b\necho c", "1:echo|a|<<|b\n2:echo|c\n"}, // nor one inside a line
		{"mapping m \\\n  <<\nx\nend", "1:mapping|m|'x\n"},
	}
	for _, tt := range tests {
		stmts, err := kernel.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error %v, want none", tt.in, err)
			continue
		}
		if got := kernel.Render(stmts); got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	stmts, _ := kernel.Parse("echo x\nmapping m <<\nA class a.*\nend")
	if w := stmts[1].Words[2]; w.Line != 3 || w.Col != 1 || w.Eq != -1 {
		t.Errorf("the block word is at line %d, column %d, = at %d; want line 3, column 1, no option", w.Line, w.Col, w.Eq)
	}
}

func TestParseBlockUnclosed(t *testing.T) {
	_, err := kernel.Parse("echo a\nmapping m <<\nA class a.*\n  ends\n")
	var se *kernel.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Col != 11 || !strings.Contains(se.Msg, "no line `end` closes") {
		t.Errorf("Parse of an unclosed block: %v, want line 2, column 11, no end", err)
	}
	in := kernel.New(t.TempDir(), lang.Table())
	for code, want := range map[string]string{"echo <<\nA class a.*": "incomplete", "echo <<\nA class a.*\nend": "complete"} {
		if got, _ := in.IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", code, got, want)
		}
	}
}
