package avid

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// thinShop thins shop and returns its arcs, its size as a share of shop's,
// and its distance from shop; every number below is worked out by hand
// from shop's event list (event i at time i, 20 events, 10 calls).
func thinShop(t *testing.T, s Sampling) (arcs string, size float64, d ArcDistance) {
	t.Helper()
	tree, em := shopEntities(t)
	thin, err := Thin(tree.Profile, Whole(s))
	if err != nil {
		t.Fatal(err)
	}
	tt := analysis.NewTree(thin.Profile)
	full, e := NewEntities(tree, em, 0), NewEntities(tt, shopMap(t, tt), 0)
	return e.arcLines(), float64(thin.Records) / float64(RecordSize(tree.Profile)), CompareArcs(full, e, thin.Replays)
}

func TestThinShop(t *testing.T) {
	for _, c := range []struct {
		s    Sampling
		arcs string
		size float64
		d    ArcDistance
	}{
		// C-1 keeps events 2, 4, …, 20: +render +Store - +Price - - +Store - +helper -. Replayed,
		// render calls Store and Price; the second Store and helper have no caller left. Both
		// calls are on the wrong arc: Cart.add called them (Core→DB, and Price inside Core), so
		// UI→Core, although an arc of the recording, recovers none of its calls.
		{Sampling{Kind: "C-1", Every: 2}, "UI→Core 1, UI→DB 1", 0.5, ArcDistance{Recovered: 0, Spurious: 1, Found: 0, Of: 5}},
		// C-2 snapshots after events 5, 10, 15, 20: run;render;Cart;Store;HashMap,
		// run;render;Cart;Price, run;render;Cart, and the empty stack: 6+5+4+1 records of 40.
		{Sampling{Kind: "C-2", Every: 5}, "Core→DB 1, DB→JDK 1, UI→Core 1", 16.0 / 40, ArcDistance{Recovered: 3.0 / 7, Found: 3, Of: 5}},
		// C-3 snapshots at 0, 6, 12 and 18: run, run;render;Cart twice (the second Cart.add
		// is missed), run.
		{Sampling{Kind: "C-3", Every: 6}, "UI→Core 1", 12.0 / 40, ArcDistance{Recovered: 1.0 / 7, Found: 1, Of: 5}},
	} {
		arcs, size, d := thinShop(t, c.s)
		if arcs != c.arcs || fmt.Sprintf("%.4f %+v", size, d) != fmt.Sprintf("%.4f %+v", c.size, c.d) {
			t.Errorf("%v: arcs %s, size %.4f, %+v; want %s, %.4f, %+v", c.s, arcs, size, d, c.arcs, c.size, c.d)
		}
	}
}

// The snapshots of C-2 weigh the time to the thread's next one.
func TestThinWeights(t *testing.T) {
	tree, _ := shopEntities(t)
	th, err := Thin(tree.Profile, Whole(Sampling{Kind: "C-2", Every: 5}))
	if err != nil {
		t.Fatal(err)
	}
	thin := th.Profile
	var got []string
	for i := range thin.Samples {
		s := &thin.Samples[i]
		got = append(got, fmt.Sprintf("%d:%d:%d", s.Time, len(thin.Stacks.At(s.Stack)), thin.Value(s, 0)))
	}
	if want := "4:5:5 9:4:5 14:3:5 19:0:0"; strings.Join(got, " ") != want || !thin.Timed {
		t.Errorf("samples time:depth:weight = %s (timed %v), want %s timed", strings.Join(got, " "), thin.Timed, want)
	}
}

func TestThinErrors(t *testing.T) {
	tree, _ := shopEntities(t)
	for _, c := range []struct {
		s    Sampling
		want string
	}{
		{Sampling{Kind: "C-1", Every: 1}, "C-1 every 1 events keeps them all: use 2 or more"},
		{Sampling{Kind: "C-3", Every: 0}, "C-3 every 0s: use an x of 1 or more"},
		{Sampling{Kind: "C-4", Every: 3}, `sampling "C-4": want C-1, C-2, C-3 or trace`},
		{Sampling{Memory: "M-1", MemoryEvery: 3}, ErrNoMemory.Error()},
		{Sampling{Kind: "C-2", Every: 21}, "C-2 every 21 events keeps nothing of the recording's 20 events and 0 memory events: choose a smaller x"},
	} {
		if _, err := Thin(tree.Profile, Whole(c.s)); err == nil || err.Error() != c.want {
			t.Errorf("Thin(%v) error = %v, want %q", c.s, err, c.want)
		}
	}
	if _, err := Thin(analysistest.Samples(tree.Profile), Whole(Sampling{Kind: "C-2", Every: 2})); err != ErrNotEvented {
		t.Errorf("Thin of a sampled profile: error %v, want ErrNotEvented", err)
	}
}

func TestSettings(t *testing.T) {
	for _, c := range []struct {
		events int
		want   string
	}{
		{20, "[C-1 every 2 events C-2 every 2 events C-3 every 100µs]"},
		{5000, "[C-1 every 50 events C-1 every 5 events C-2 every 50 events C-2 every 5 events C-3 every 10µs C-3 every 1µs]"},
		{1_000_000, "[C-1 every 1000 events C-1 every 100 events C-2 every 1000 events C-2 every 100 events C-3 every 1µs C-3 every 100ns]"},
	} {
		// events spread over 1ms: one call entered at 0 and left at 1ms.
		p := &analysis.Profile{Calls: []analysis.Call{{Enter: 0, Exit: 1e6}}, Events: make([]analysis.Event, c.events)}
		p.Events[c.events-1].Exit = true
		if got := fmt.Sprint(Settings(p)); got != c.want {
			t.Errorf("Settings of %d events = %s, want %s", c.events, got, c.want)
		}
	}
}

// C-3 refuses a period that takes more snapshots than a profile may hold,
// before taking any.
func TestThinC3Limit(t *testing.T) {
	_, err := Thin(secondLong(), Whole(Sampling{Kind: "C-3", Every: 1}))
	want := "C-3 every 1ns takes 1000000001 snapshots of 1 threads, more than the limit of 10000000: use a period of 110ns or more"
	if err == nil || err.Error() != want {
		t.Errorf("Thin every 1ns of 1s: error %v, want %q", err, want)
	}
	p := secondLong()
	if err := newThinner(p, nil, Whole(Sampling{Kind: "C-3", Every: 110})).c3Room(); err != nil {
		t.Errorf("the period the error names is refused too: %v", err)
	}
}

// secondLong is the recording of TestThinC3Limit: f from 0 to 1 s.
func secondLong() *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	b.Enter("t", b.Frame(analysis.Frame{Name: "f"}), 0)
	b.Exit("t", 1e9)
	return b.Finish()
}

// CompareArcs by hand: calls on an arc the recording lacks are spurious,
// calls beyond an arc's full count too, and replayed calls whose true
// caller is of another entity are wrong even on an arc the recording has.
func TestCompareArcsByHand(t *testing.T) {
	em := &EntityMap{Names: []string{"A", "B", "C", Other}, Frame: []int32{0, 1, 2}}
	full := &Entities{Map: em, Arcs: []Arc{{0, 1, 10}, {1, 2, 4}}}
	thin := &Entities{Map: em, Arcs: []Arc{{0, 1, 6}, {1, 2, 5}, {0, 2, 3}}}
	// A→B: 6 right of 10; B→C: 4 right, 1 beyond; A→C: 3 on an arc the recording lacks.
	want := ArcDistance{Recovered: 10.0 / 14, Spurious: 4.0 / 14, Found: 2, Of: 2}
	if got := CompareArcs(full, thin, nil); got != want {
		t.Errorf("CompareArcs = %+v, want %+v", got, want)
	}
	// Two of A→B's calls were replayed onto A although C made them (frames
	// 0, 1, 2 are A, B, C); one onto A that A made is right; one whose
	// replayed caller is gone counts nowhere.
	replays := []Replay{{Frame: 1, Caller: 0, TrueCaller: 2}, {Frame: 1, Caller: 0, TrueCaller: 2}, {Frame: 1, Caller: 0, TrueCaller: 0}, {Frame: 1, Caller: -1, TrueCaller: 2}}
	want = ArcDistance{Recovered: 8.0 / 14, Spurious: 6.0 / 14, Found: 2, Of: 2}
	if got := CompareArcs(full, thin, replays); got != want {
		t.Errorf("CompareArcs with replays = %+v, want %+v", got, want)
	}
	if got := CompareObjects(&Objects{Alloc: []int64{4, 0, 6, 0}}, &Objects{Alloc: []int64{5, 1, 3, 0}}); got != 7.0/10 {
		t.Errorf("CompareObjects = %v, want 0.7", got)
	}
}
