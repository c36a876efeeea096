package blueprint_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/callgrind"
	_ "github.com/proflens/proflens/analysis/pprof"
	"github.com/proflens/proflens/blueprint"
)

// TestCallCountsOfHeap: a real Go heap profile counts objects, the type of
// the value shown (sums from the corpus's MANIFEST.md: alloc_objects 83487,
// inuse_objects 73788), each node the objects allocated through it.
func TestCallCountsOfHeap(t *testing.T) {
	p, err := analysis.Load(context.Background(), "../analysis/testdata/heap.pb.gz", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tree := analysis.NewTree(p)
	for _, c := range []struct {
		value, counts string
		sum           int64
	}{{"inuse_space", "inuse_objects", 73788}, {"alloc_space", "alloc_objects", 83487}, {"alloc_objects", "alloc_objects", 83487}} {
		got, err := blueprint.CallCounts(tree, p, p.ValueIndex(c.value))
		if err != nil || got.Source != analysis.CountObjects {
			t.Fatalf("CallCounts(%s) = %v, %v; want objects", c.value, got.Source, err)
		}
		var sum int64
		for _, r := range tree.Roots {
			sum += got.Calls[r]
		}
		k := p.ValueIndex(c.counts)
		for n := range got.Calls {
			if got.Calls[n] != tree.Total[k][n] {
				t.Fatalf("CallCounts(%s) node %d = %d, want its %s %d", c.value, n, got.Calls[n], c.counts, tree.Total[k][n])
			}
		}
		if sum != c.sum {
			t.Errorf("CallCounts(%s): roots count %d, want %d %s", c.value, sum, c.sum, c.counts)
		}
	}
}

func TestCallCountsSources(t *testing.T) {
	contention, err := analysis.Load(context.Background(), "../analysis/pprof/testdata/cppbench.small.contention", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	callgrind, err := analysis.Parse(context.Background(), "cg.out",
		[]byte("events: Ir\nfn=main\n1 5\ncfn=f\ncalls=3 1\n1 30\nfn=f\n1 30\n"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    *analysis.Profile
		want analysis.CountSource
		root int64
	}{
		{contention, analysis.CountContentions, 1000}, // MANIFEST.md: value sums [1000 3124]
		{callgrind, analysis.CountCallgrind, 1},
		{recording(), analysis.CountEvents, 1},
		{timed(), analysis.CountStackDiffs, 2},
	} {
		tree := analysis.NewTree(c.p)
		got, err := blueprint.CallCounts(tree, c.p, c.p.DefaultValue)
		if err != nil || got.Source != c.want || got.Calls[tree.Roots[0]] != c.root {
			t.Errorf("%s: CallCounts = %s, %v, root %d; want %s, root %d", c.p.Format, got.Source, err, got.Calls[tree.Roots[0]], c.want, c.root)
		}
	}
	b := analysis.NewBuilder("cpu", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "f"})}), []int64{1}, 0, false, "", nil)
	p := b.Finish()
	if _, err := blueprint.CallCounts(analysis.NewTree(p), p, 0); !errors.Is(err, blueprint.ErrNoCounts) {
		t.Errorf("CallCounts of a sampled profile: %v, want ErrNoCounts", err)
	}
}

// TestCallgrindCountsUnderFilters: hiding a callgrind function drops its
// count (its callees keep theirs, now below its caller), where adding the
// "calls" values of the samples would give its count to its caller.
func TestCallgrindCountsUnderFilters(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "cg.out", []byte("events: Ir\nfn=main\n1 5\ncfn=plt\ncalls=3 1\n1 30\n"+
		"fn=plt\n1 3\ncfn=f\ncalls=3 1\n1 27\nfn=f\n1 27\n"), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    analysis.Filter
		want string
	}{
		{analysis.Filter{}, "main=1 main;plt=3 main;plt;f=3"},
		{analysis.Filter{Hide: regexp.MustCompile("^plt$")}, "main=1 main;f=3"},
		{analysis.Filter{Ignore: regexp.MustCompile("^f$")}, "main=1 main;plt=3"},
	} {
		tree := analysis.NewTree(p.Filter(c.f))
		got, err := blueprint.CallCounts(tree, p, 0)
		if err != nil || countLines(tree, got) != c.want {
			t.Errorf("CallCounts under %s = %s, %v; want %s", c.f, countLines(tree, got), err, c.want)
		}
	}
}

// countLines renders counts as "path=n" for the nodes with a count.
func countLines(t *analysis.Tree, c analysis.Counts) string {
	var out []string
	for n, k := range c.Calls {
		if k == 0 {
			continue
		}
		var names []string
		for a := int32(n); a >= 0; a = t.Parent[a] {
			names = append([]string{t.Name(a)}, names...)
		}
		out = append(out, fmt.Sprintf("%s=%d", strings.Join(names, ";"), k))
	}
	return strings.Join(out, " ")
}

// recording is main calling f at 10 and g at 30.
func recording() *analysis.Profile {
	b := analysis.NewBuilder("events", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	main, f, g := b.Frame(analysis.Frame{Name: "main"}), b.Frame(analysis.Frame{Name: "f"}), b.Frame(analysis.Frame{Name: "g"})
	b.Enter("", main, 0)
	b.Enter("", g, 10)
	b.Exit("", 20)
	b.Enter("", f, 30)
	b.Exit("", 40)
	b.Exit("", 50)
	return b.Finish()
}

// timed is samples of main, main;f, an empty stack, then main;g.
func timed() *analysis.Profile {
	b := analysis.NewBuilder("timed", analysis.ValueType{Type: "samples", Unit: "count"})
	main, f, g := b.Frame(analysis.Frame{Name: "main"}), b.Frame(analysis.Frame{Name: "f"}), b.Frame(analysis.Frame{Name: "g"})
	for i, st := range [][]int32{{main}, {main, f}, {}, {main, g}} {
		b.Add(b.Stack(st), []int64{1}, int64(100*i), true, "", nil)
	}
	return b.Finish()
}

// FirstEntries orders by time: g, entered first, before f, in a recording;
// in samples, the time of the first sample with the frame on the stack.
func TestFirstEntries(t *testing.T) {
	for _, c := range []struct {
		p    *analysis.Profile
		want map[string]int64
	}{
		{recording(), map[string]int64{"main": 0, "f": 30, "g": 10}},
		{timed(), map[string]int64{"main": 0, "f": 100, "g": 300}},
	} {
		tree := analysis.NewTree(c.p)
		first, ok := analysis.FirstEntries(tree)
		if !ok {
			t.Fatalf("%s: FirstEntries not ok", c.p.Format)
		}
		for n := range int32(tree.Len()) {
			if first[n] != c.want[tree.Name(n)] {
				t.Errorf("%s: %s first entered at %d, want %d", c.p.Format, tree.Name(n), first[n], c.want[tree.Name(n)])
			}
		}
	}
	if _, ok := analysis.FirstEntries(analysis.NewTree(analysis.NewBuilder("x").Finish())); ok {
		t.Errorf("FirstEntries of an untimed profile: ok, want not")
	}
}
