package avid

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// celLines shows each cel as "start-end entries [stack] arcs", an arc as
// from→to +step=total for the arcs with calls so far.
func (cs *Cels) lines() string {
	var out []string
	for _, c := range cs.Cels {
		var stack, arcs []string
		for _, e := range c.Stack {
			stack = append(stack, cs.Map.Names[e])
		}
		for i, a := range cs.Arcs {
			if c.Total[i] > 0 {
				arcs = append(arcs, fmt.Sprintf("%s→%s +%d=%d", cs.Map.Names[a.From], cs.Map.Names[a.To], c.Step[i], c.Total[i]))
			}
		}
		out = append(out, fmt.Sprintf("%d-%d %d [%s] %s", c.Start, c.End, c.Entries, strings.Join(stack, " "), strings.Join(arcs, ", ")))
	}
	return strings.Join(out, "\n")
}

// Cels of two entries of shop, worked out by hand from its event list
// (event i at time i).
func TestCelsOfShop(t *testing.T) {
	tree, em := shopEntities(t)
	cs, err := NewCels(tree, em, CelStep{Entries: 2}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"0-1 2 [UI] ",
		"2-3 2 [UI Core DB] Core→DB +1=1, UI→Core +1=1",
		"4-7 2 [UI Core] Core→DB +0=1, UI→Core +0=1, DB→JDK +1=1",
		"8-12 2 [UI Core] Core→DB +0=1, UI→Core +1=2, Core→JDK +1=1, DB→JDK +0=1",
		"13-19 2 [] Core→DB +1=2, UI→Core +0=2, Core→JDK +0=1, DB→JDK +0=1, UI→(other) +1=1",
	}, "\n")
	if got := cs.lines(); got != want || cs.Source != analysis.CountEvents {
		t.Errorf("cels:\n%s\nwant\n%s", got, want)
	}
}

// Cels of a period cover equal spans from the first event; a cel without
// events keeps the stack of the one before.
func TestCelsByTime(t *testing.T) {
	tree, em := shopEntities(t)
	cs, err := NewCels(tree, em, CelStep{Period: 8}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"0-8 6 [UI Core] Core→DB +1=1, UI→Core +1=1, DB→JDK +1=1",
		"8-16 3 [UI] Core→DB +1=2, UI→Core +1=2, Core→JDK +1=1, DB→JDK +0=1",
		"16-24 1 [] Core→DB +0=2, UI→Core +0=2, Core→JDK +0=1, DB→JDK +0=1, UI→(other) +1=1",
	}, "\n")
	if got := cs.lines(); got != want {
		t.Errorf("cels:\n%s\nwant\n%s", got, want)
	}
}

func TestCelsErrors(t *testing.T) {
	tree, em := shopEntities(t)
	for _, c := range []struct {
		step CelStep
		want string
	}{
		{CelStep{Entries: 1}, "step=1 cuts 10 entries into 10 cels, more than the limit of 4: use step=3 or more"},
		{CelStep{Period: 1}, "step=1ns cuts 19ns into 20 cels, more than the limit of 4: use step=7ns or more"},
		{CelStep{}, "a cel step is a number of entries"},
	} {
		if _, err := NewCels(tree, em, c.step, 0, 4); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("NewCels(%+v) error = %v, want %q", c.step, err, c.want)
		}
	}
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "ui.f"})}), []int64{1}, 0, false, "", nil)
	untimed := analysis.NewTree(b.Finish())
	if _, err := NewCels(untimed, shopMap(t, untimed), CelStep{Entries: 1}, 0, 4); err != ErrNoTimeOrder {
		t.Errorf("NewCels of an untimed profile: error %v, want ErrNoTimeOrder", err)
	}
}
