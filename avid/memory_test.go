package avid

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// allocShop is shop with memory events: Store.get makes a String twice and
// Price.total an Integer; the helper frees a String and a core.Item made at
// the top before the first call (a free needs no stack).
var allocShop = analysistest.Recording{Thread: "main", Ops: "*core.Item +ui.Main.run +ui.View.render +core.Cart.add +db.Store.get *java.lang.String +java.util.HashMap.get - - " +
	"+core.Price.total *java.lang.Integer +java.util.HashMap.get - - - +core.Cart.add +db.Store.get *java.lang.String - - - +helper ~java.lang.String ~core.Item - -"}

// objectLines shows allocations and frees per entity: "JDK +3 -1".
func objectLines(em *EntityMap, o *Objects) string {
	var out []string
	for i, n := range em.Names {
		if o.Alloc[i] != 0 || o.Free[i] != 0 {
			out = append(out, fmt.Sprintf("%s +%d -%d", n, o.Alloc[i], o.Free[i]))
		}
	}
	return strings.Join(out, ", ")
}

// The counts, by hand: JDK allocates 2 Strings and an Integer and frees a
// String; Core allocates an Item and frees it.
func TestObjectsOfAllocShop(t *testing.T) {
	tree := analysis.NewTree(analysistest.Build(allocShop))
	em := shopMap(t, tree)
	e := NewEntities(tree, em, 0)
	if got, want := objectLines(em, e.Objects), "Core +1 -1, JDK +3 -1"; e.Objects == nil || got != want || e.Objects.Source != analysis.MemoryTraced {
		t.Fatalf("objects = %s (%v), want %s (traced)", got, e.Objects, want)
	}
	// Cels of 3 entries (one operation per time unit from 0): the entries are
	// at 1 2 3 | 4 6 9 | 11 15 16 | 21, and a cel starts at the operation
	// after its predecessor's last entry: at 1, 4, 11 and 18. The Item is
	// made at 0, before any cel (so in the first), the Strings at 5 and 17,
	// the Integer at 10 (after cel 2's last entry: still cel 2), the frees
	// at 22 and 23.
	cs, err := NewCels(tree, em, CelStep{Entries: 3}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs.Cels {
		got = append(got, fmt.Sprintf("%d: %s", c.Start, objectLines(em, c.Objects)))
	}
	want := "1: Core +1 -0 | 4: Core +1 -0, JDK +2 -0 | 11: Core +1 -0, JDK +3 -0 | 18: Core +1 -1, JDK +3 -1"
	if strings.Join(got, " | ") != want {
		t.Errorf("objects per cel:\n%s\nwant\n%s", strings.Join(got, " | "), want)
	}
	// Self up to cel 1: a time unit on run;render (UI), on run (UI) and on
	// run;render;Cart.add (Core), before cel 2 starts at 4; the last cel's
	// is the whole recording's.
	if c0, last := cs.Cels[0].Self, cs.Cels[len(cs.Cels)-1].Self; c0[0] != 2 || c0[1] != 1 || !slices.Equal(last, e.Self) {
		t.Errorf("self up to cel 1 = %v, want UI 2, Core 1; up to the last = %v, want %v", c0, last, e.Self)
	}
}

// On random recordings, the objects per entity and per cel are those a
// direct walk of the recording's operations counts (countOps).
func TestObjectsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	classes := []string{"java.lang.String", "core.Item", "db.Row", "misc.Thing"}
	entityOf := map[string]string{"java.lang.String": "JDK", "core.Item": "Core", "db.Row": "DB", "misc.Thing": Other}
	for run := range 300 {
		ops, want := randomOps(r, classes)
		tree := analysis.NewTree(analysistest.Build(analysistest.Recording{Thread: "t", Ops: strings.Join(ops, " ")}))
		em := shopMap(t, tree)
		step := int64(1 + r.IntN(4))
		cs, err := NewCels(tree, em, CelStep{Entries: step}, 0, 1000)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		got := map[string]int64{}
		for k, c := range cs.Cels {
			for i, n := range em.Names {
				got[fmt.Sprintf("cel%d %s +", k, n)] = c.Objects.Alloc[i]
				got[fmt.Sprintf("cel%d %s -", k, n)] = c.Objects.Free[i]
			}
		}
		oracle := countOps(ops, entityOf, step, len(cs.Cels), want)
		for k, n := range oracle {
			if got[k] != n {
				t.Fatalf("run %d, step %d: %s = %d, counted %d; ops %s", run, step, k, got[k], n, strings.Join(ops, " "))
			}
		}
	}
}

// randomOps returns the operations of a random recording of one thread
// with at least one entry, and the classes it allocates.
func randomOps(r *rand.Rand, classes []string) ([]string, []string) {
	frames := []string{"ui.Main.run", "core.Cart.add", "db.Store.get", "java.util.HashMap.get", "helper"}
	var ops []string
	depth := 0
	for i := 0; i < 30 || depth > 0; i++ {
		switch x := r.IntN(10); {
		case x < 4 && i < 30 || depth == 0:
			ops = append(ops, "+"+frames[r.IntN(len(frames))])
			depth++
		case x < 7:
			ops = append(ops, "-")
			depth--
		default:
			ops = append(ops, []string{"*", "~"}[r.IntN(2)]+classes[r.IntN(len(classes))])
		}
	}
	if r.IntN(2) == 0 { // memory events after the last event, and before the first
		ops = append(ops, "*"+classes[0])
		ops = slices.Insert(ops, 0, "~"+classes[1])
	}
	return ops, classes
}

// countOps counts the memory operations per cel and entity, cumulated: an
// entry or exit is in cel (entries before it)/step, at most the last cel;
// a memory operation is in the cel of the entry or exit before it (the
// first cel when there is none).
func countOps(ops []string, entityOf map[string]string, step int64, cels int, _ []string) map[string]int64 {
	per := make([]map[string]int64, cels)
	for k := range per {
		per[k] = map[string]int64{}
	}
	var entries int64
	k := 0 // the cel of the last entry or exit
	for _, op := range ops {
		switch op[0] {
		case '+', '-':
			k = min(int(entries/step), cels-1)
			if op[0] == '+' {
				entries++
			}
		case '*':
			per[k][entityOf[op[1:]]+" +"]++
		case '~':
			per[k][entityOf[op[1:]]+" -"]++
		}
	}
	out := map[string]int64{}
	sum := map[string]int64{}
	for k := range per {
		for _, e := range []string{"JDK", "Core", "DB", Other} {
			for _, sign := range []string{" +", " -"} {
				sum[e+sign] += per[k][e+sign]
				out[fmt.Sprintf("cel%d %s%s", k, e, sign)] = sum[e+sign]
			}
		}
	}
	return out
}
