package folded

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
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
