package avid

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// shop is a hand-built recording of one thread, one event per nanosecond:
// the UI's Main.run calls View.render, which calls Cart.add twice; the cart
// reads the store (which uses a HashMap) and prices the items; run ends
// with a helper of no entity. The calls between entities, counted by hand:
// UI→Core 2 (render→Cart.add), Core→DB 2 (Cart.add→Store.get), Core→JDK 1
// (Price.total→HashMap.get), DB→JDK 1, UI→(other) 1 (run→helper); Cart.add
// calling Price.total stays inside Core.
var shop = analysistest.Recording{Thread: "main", Start: 0, Ops: "+ui.Main.run +ui.View.render +core.Cart.add +db.Store.get +java.util.HashMap.get - - " +
	"+core.Price.total +java.util.HashMap.get - - - +core.Cart.add +db.Store.get - - - +helper - -"}

const shopMapping = "UI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nNet package net/http.*\n"

func shopEntities(t *testing.T) (*analysis.Tree, *EntityMap) {
	tree := analysis.NewTree(analysistest.Build(shop))
	return tree, shopMap(t, tree)
}

func shopMap(t testing.TB, tree *analysis.Tree) *EntityMap {
	t.Helper()
	m, err := ParseMapping("shop.map", shopMapping)
	if err != nil {
		t.Fatal(err)
	}
	return m.Apply(tree.Profile)
}

func (e *Entities) arcLines() string {
	var out []string
	for _, a := range e.Arcs {
		out = append(out, fmt.Sprintf("%s→%s %d", e.Map.Names[a.From], e.Map.Names[a.To], a.Calls))
	}
	return strings.Join(out, ", ")
}

func TestEntitiesOfShop(t *testing.T) {
	tree, em := shopEntities(t)
	e := NewEntities(tree, em, 0)
	// Every nanosecond between two events is one sample: self and total
	// counted by hand from the event list.
	names := "UI,Core,DB,JDK,Net,(other)"
	checks := []struct {
		what      string
		got, want []int64
	}{
		{"self", e.Self, []int64{6, 7, 3, 2, 0, 1}},
		{"total", e.Total, []int64{19, 12, 4, 2, 0, 1}},
		{"calls in", e.CallsIn, []int64{0, 2, 2, 2, 0, 1}},
	}
	for _, c := range checks {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s of %s = %v, want %v", c.what, names, c.got, c.want)
		}
	}
	want := "Core→DB 2, UI→Core 2, Core→JDK 1, DB→JDK 1, UI→(other) 1"
	if got := e.arcLines(); got != want || e.Source != analysis.CountEvents || e.Grand != 19 {
		t.Errorf("arcs = %s (%s, grand %d), want %s (events, 19)", got, e.Source, e.Grand, want)
	}
	if e.Alloc != nil || e.AllocValue != -1 {
		t.Errorf("Alloc = %v (value %d), want none for a profile without allocation values", e.Alloc, e.AllocValue)
	}
	if strings.Join(em.Unused, ";") != "line 5: Net package net/http.*" {
		t.Errorf("Unused = %q, want line 5", em.Unused)
	}
}

// A sampled profile of the same calls, one sample per interval between
// events: every call of shop lasts at least one interval and is not
// followed at once by another call of the same path, so stack diffs
// recover all of them.
func TestEntitiesByStackDiffs(t *testing.T) {
	tree, _ := shopEntities(t)
	sampled := analysis.NewTree(analysistest.Samples(tree.Profile))
	e := NewEntities(sampled, shopMap(t, sampled), 0)
	want := "Core→DB 2, UI→Core 2, Core→JDK 1, DB→JDK 1, UI→(other) 1"
	if got := e.arcLines(); got != want || e.Source != analysis.CountStackDiffs {
		t.Errorf("arcs by stack diffs = %s (%s), want %s (stack-diffs)", got, e.Source, want)
	}
}

func TestAllocValue(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  int
	}{
		{[]string{"samples/count", "cpu/nanoseconds"}, -1},
		{[]string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}, 0},
		{[]string{"alloc_space/bytes", "inuse_objects/count"}, 1},
		{[]string{"space/bytes"}, 0},
	} {
		var vts []analysis.ValueType
		for _, s := range c.types {
			typ, unit, _ := strings.Cut(s, "/")
			vts = append(vts, analysis.ValueType{Type: typ, Unit: unit})
		}
		if got := allocValue(&analysis.Profile{ValueTypes: vts}); got != c.want {
			t.Errorf("allocValue(%v) = %d, want %d", c.types, got, c.want)
		}
	}
}
