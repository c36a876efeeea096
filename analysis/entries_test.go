package analysis_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// counts returns "path=n" for every node with a count, in node order.
func lines(c analysis.Counts, t *analysis.Tree) string {
	var out []string
	for n, k := range c.Calls {
		if k != 0 {
			out = append(out, fmt.Sprintf("%s=%d", pathName(t, int32(n)), k))
		}
	}
	return strings.Join(out, " ")
}

func pathName(t *analysis.Tree, n int32) string {
	var names []string
	for ; n >= 0; n = t.Parent[n] {
		names = append(names, t.Name(n))
	}
	slices.Reverse(names)
	return strings.Join(names, ";")
}

func TestEntryCountsOfHandRecording(t *testing.T) {
	tree := analysis.NewTree(analysistest.Build(handRecording...))
	c, ok := analysis.EntryCounts(tree)
	want := "W=1 W;A=1 main=1 main;A=2 main;A;B=2 main;B=1"
	if got := lines(c, tree); !ok || c.Source != analysis.CountEvents || got != want {
		t.Errorf("EntryCounts = %v %s %s, want true events %s", ok, c.Source, got, want)
	}
}

// timedSamples builds a timed profile of one-per-time-unit samples; each
// stack is "thread:f;g;h" ("thread:" for an empty stack).
func timedSamples(stacks ...string) *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	for i, s := range stacks {
		thread, path, _ := strings.Cut(s, ":")
		var st []int32
		for _, f := range strings.FieldsFunc(path, func(r rune) bool { return r == ';' }) {
			st = append(st, b.Frame(analysis.Frame{Name: f}))
		}
		b.Add(b.Stack(st), []int64{1}, int64(i), true, thread, nil)
	}
	return b.Finish()
}

func TestEntryCountsByStackDiffs(t *testing.T) {
	p := timedSamples(
		"m:main", "m:main;A", "w:W;A", "m:main;A;B", "m:main;A;B", // B sampled twice: one entry
		"w:W;A", "m:main;A", "m:main;B", "m:", "m:main;B", // the empty stack leaves main
	)
	tree := analysis.NewTree(p)
	c, ok := analysis.EntryCounts(tree)
	want := "W=1 W;A=1 main=2 main;A=1 main;A;B=1 main;B=2"
	if got := lines(c, tree); !ok || c.Source != analysis.CountStackDiffs || got != want {
		t.Errorf("EntryCounts = %v %s %s, want true stack-diffs %s", ok, c.Source, got, want)
	}
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "f"})}), []int64{1}, 0, false, "", nil)
	if c, ok := analysis.EntryCounts(analysis.NewTree(b.Finish())); ok {
		t.Errorf("EntryCounts of an untimed profile = %v, true; want false", c)
	}
}

// Under hide, an entry of a hidden frame enters nothing; its callees count
// under the hidden frame's caller.
func TestEntryCountsUnderFilter(t *testing.T) {
	p := analysistest.Build(handRecording...)
	tree := analysis.NewTree(p.Filter(analysis.Filter{Hide: regexp.MustCompile("^A$")}))
	c, _ := analysis.EntryCounts(tree)
	want := "W=1 main=1 main;B=3"
	if got := lines(c, tree); got != want {
		t.Errorf("EntryCounts under hide=^A$ = %s, want %s", got, want)
	}
}

// randomRecording enters and leaves frames on a few threads at random.
func randomRecording(r *rand.Rand, n int) (*analysis.Profile, map[string]int64) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	names := []string{"a", "b", "c", "d"}
	threads := []string{"", "t1", "t2"}
	open := map[string][]string{}
	want := map[string]int64{}
	for i := range n {
		th := threads[r.Intn(len(threads))]
		t := int64(i / 3) // several events share a time
		if len(open[th]) > 0 && r.Intn(2) == 0 {
			b.Exit(th, t)
			open[th] = open[th][:len(open[th])-1]
			continue
		}
		f := names[r.Intn(len(names))]
		b.Enter(th, b.Frame(analysis.Frame{Name: f}), t)
		open[th] = append(open[th], f)
		want[strings.Join(open[th], ";")]++
	}
	return b.Finish(), want
}

// Exact counts equal an independent count of entries by call path, and
// replaying the steps gives each thread's stack as the recording built it.
func TestEntryCountsRandomRecordings(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for round := range 200 {
		p, want := randomRecording(r, r.Intn(300))
		tree := analysis.NewTree(p)
		c, ok := analysis.EntryCounts(tree)
		if len(p.Calls) == 0 {
			continue
		}
		got := map[string]int64{}
		for n, k := range c.Calls {
			if k != 0 {
				got[pathName(tree, int32(n))] = k
			}
		}
		if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: EntryCounts = %v, want %v", round, got, want)
		}
		checkEvents(t, p)
	}
}

// checkEvents checks that p.Events are in time order, that each call's
// entry comes before its exit and inside its parent's, and that calls are
// numbered in entry order.
func checkEvents(t *testing.T, p *analysis.Profile) {
	t.Helper()
	entered, exited := make([]bool, len(p.Calls)), make([]bool, len(p.Calls))
	next := int32(0)
	for i, e := range p.Events {
		if i > 0 && p.EventTime(e) < p.EventTime(p.Events[i-1]) {
			t.Fatalf("event %d at %d before event %d at %d", i, p.EventTime(e), i-1, p.EventTime(p.Events[i-1]))
		}
		c := &p.Calls[e.Call]
		if e.Exit {
			if !entered[e.Call] || exited[e.Call] {
				t.Fatalf("event %d: exit of call %d before its entry or twice", i, e.Call)
			}
			exited[e.Call] = true
			continue
		}
		if e.Call != next {
			t.Fatalf("event %d enters call %d, want %d (entry order)", i, e.Call, next)
		}
		next++
		entered[e.Call] = true
		if c.Parent >= 0 && (!entered[c.Parent] || exited[c.Parent] || c.Depth != p.Calls[c.Parent].Depth+1) {
			t.Fatalf("call %d enters outside its parent %d", e.Call, c.Parent)
		}
	}
}

// Stack diffs never count more entries than there were: on the samples an
// evented recording turns into (one per interval between events), they are
// at most the exact counts, node by node.
func TestStackDiffsAreALowerBound(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for round := range 100 {
		p, _ := randomRecording(r, r.Intn(300))
		exact, _ := analysis.EntryCounts(analysis.NewTree(p))
		exactBy := map[string]int64{}
		tree := analysis.NewTree(p)
		for n, k := range exact.Calls {
			exactBy[pathName(tree, int32(n))] = k
		}
		sampled := analysistest.Samples(p)
		st := analysis.NewTree(sampled)
		diffs, ok := analysis.EntryCounts(st)
		if !ok && len(sampled.Samples) > 0 {
			t.Fatalf("round %d: no stack diffs for timed samples", round)
		}
		for n, k := range diffs.Calls {
			if path := pathName(st, int32(n)); k > exactBy[path] {
				t.Fatalf("round %d: %s: %d entries by stack diffs, %d exact", round, path, k, exactBy[path])
			}
		}
	}
}
