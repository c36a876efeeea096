package folded

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzFolded(f *testing.F) {
	testprof.Fuzz(f, "folded", "perf-dd-stacks-01-collapsed-pid.txt", "a;b 1\nb;c 2 3\n")
}

// FuzzFoldedRoundTrip: Write of a folded profile reads back to the
// same folded text.
func FuzzFoldedRoundTrip(f *testing.F) {
	f.Add([]byte("a;b 1\nb;c 2\na;b 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := analysis.Parse(context.Background(), "in", data, analysis.LoadOptions{Format: "folded"})
		if err != nil || len(p.ValueTypes) != 1 {
			return
		}
		for _, fr := range p.Frames {
			if strings.ContainsAny(fr.Name, " \t") {
				return // "f 12" as a frame name reads back as a count column
			}
		}
		var once, twice bytes.Buffer
		if err := Write(&once, p, 0); err != nil {
			t.Fatal(err)
		}
		q, err := analysis.Parse(context.Background(), "once", once.Bytes(), analysis.LoadOptions{Format: "folded"})
		if err != nil {
			if once.Len() == 0 {
				return // nothing but zero counts
			}
			t.Fatalf("re-read of %q: %v", once.String(), err)
		}
		Write(&twice, q, 0)
		if once.String() != twice.String() {
			t.Fatalf("round trip:\n%q\n%q", once.String(), twice.String())
		}
	})
}
