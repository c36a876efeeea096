package folded

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestFoldedLongLine: a folded file whose first line is longer than the
// sniffer's 4 KiB head is still recognised.
func TestFoldedLongLine(t *testing.T) {
	stack := strings.Repeat("org.example.Frame.call;", 300) + "leaf 7\n"
	p, err := analysis.Parse(context.Background(), "deep.txt", []byte(stack+"a;b 1\n"), analysis.LoadOptions{})
	if err != nil || p.Format != "folded" || len(p.Stacks.At(0)) != 301 || p.Total(0) != 8 {
		t.Fatalf("Parse(deep) = %v, %v; want folded, 301 frames, total 8", p, err)
	}
}

// TestSyntaxErrorAs: positions are available to callers through errors.As.
func TestSyntaxErrorAs(t *testing.T) {
	_, err := analysis.Parse(context.Background(), "x.folded", []byte("a;b 1\na;b\n"), analysis.LoadOptions{})
	var se *analysis.SyntaxError
	if !errors.As(err, &se) || se.File != "x.folded" || se.Line != 2 {
		t.Errorf("errors.As(%v) = %+v, want x.folded line 2", err, se)
	}
}

// TestErrors: files that are not folded stacks give errors naming the line
// and what was expected there.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# a comment\n\n// another\n", "in: line 4: expected at least one folded stack line, found none"},
		{"a;b 1\na;b\n", `in: line 2: expected "frame;frame;... COUNT" (folded stacks), got "a;b"`},
		{"a;b 1 2\na;b 1\n", "in: line 2: expected 2 count column(s) like the first line, got 1"},
		{"a;b 1\na;b 99999999999999999999\n", `in: line 2: expected 1 integer count column(s) like the first line, got "99999999999999999999"`},
	} {
		_, err := analysis.Parse(context.Background(), "in", []byte(c.in), analysis.LoadOptions{Format: "folded"})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) error = %v\nwant %s", c.in, err, c.want)
		}
		testprof.CheckError(t, "in", err)
	}
}

// TestSniff: the first stack line decides. A stack with a ';' is folded
// text even when a later line is damaged (the error then names that line);
// a 4096-byte head cut inside its first line is folded text when that line
// has a ';' after a first frame.
func TestSniff(t *testing.T) {
	long := strings.Repeat("org.example.Frame.call;", 200)
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"a stack with an empty first frame, then a damaged line", ";main;f 1\nbroken\n", true},
		{"a cut stack", long[:4096], true},
		{"a cut line with an empty first frame", (";" + long)[:4096], false},
		{"a cut JSON array", ("[" + long)[:4096], false},
	} {
		if got := sniff([]byte(c.head)); got != c.want {
			t.Errorf("%s: sniff(%.40q…) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}
