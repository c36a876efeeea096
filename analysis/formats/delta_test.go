package formats

import (
	"context"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// A goroutine profile that is a delta (net/http/pprof's ?seconds=2) has
// negative samples; its total is the net change, and the note says so with
// the increases and decreases, which `go tool pprof -raw` lists: +13 +1 +1
// and -14 -1 -1 -1 goroutines.
func TestDeltaProfileNote(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/goroutine-delta.pb.gz", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "4 of 7 samples are negative: the file is a difference of two profiles (a delta or a diff), and a total is a net change: goroutine -2 = 15 of increases, 17 of decreases"
	if p.Total(0) != -2 || len(p.Notes) != 1 || p.Notes[0] != want {
		t.Errorf("total %d, notes %q; want -2 and %q", p.Total(0), p.Notes, want)
	}
	if strings.Contains(analysis.NewInfo(p, analysis.NewTree(p)).String(), "increases") == false {
		t.Errorf("info does not show the note")
	}
}
