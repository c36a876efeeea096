package chrome

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestChromeThreadIDs: the eight threads of speedscope's multiprocess.json
// have the names speedscope's importer gives them (its snapshot,
// src/import/__snapshots__/trace-event.test.ts.snap), and their ids and
// processes; thread= and process= select them by id or by name. Each
// thread runs one function of its own.
func TestChromeThreadIDs(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/multiprocess.json", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, th := range p.Threads() {
		got = append(got, th.Name+" = "+th.Process+"/"+th.PID+"/"+th.ID)
	}
	want := []string{
		"p0 (pid 0), p0t0 (tid 0) = p0/0/0", "p0 (pid 0), p0t1 (tid 1) = p0/0/1",
		"p1 (pid 1), p1t0 (tid 0) = p1/1/0", "p1 (pid 1), p1t1 (tid 1) = p1/1/1",
		"p2t0 (pid 2, tid 0) = /2/0", "p2t1 (pid 2, tid 1) = /2/1",
		"p3 (pid 3, tid 0) = p3/3/0", "p3 (pid 3, tid 1) = p3/3/1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("threads =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		f    analysis.Filter
		want string
	}{
		{analysis.Filter{Thread: regexp.MustCompile("1")}, "beta delta eta phi"},
		{analysis.Filter{Thread: regexp.MustCompile("t1")}, "beta delta phi"},
		{analysis.Filter{Process: regexp.MustCompile("1")}, "delta gamma"},
		{analysis.Filter{Process: regexp.MustCompile("^p")}, "alpha beta delta eta gamma zeta"},
		{analysis.Filter{Process: regexp.MustCompile("2"), Thread: regexp.MustCompile("0")}, "epsilon"},
	} {
		tree := analysis.NewTree(p.Filter(c.f))
		var names []string
		for _, r := range tree.Roots {
			names = append(names, tree.Name(r))
		}
		slices.Sort(names)
		if strings.Join(names, " ") != c.want {
			t.Errorf("filter %s keeps %v, want %s", c.f, names, c.want)
		}
	}
}
