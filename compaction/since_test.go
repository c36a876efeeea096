package compaction

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestNewSince: on the paper's figures and on random step chains, a node
// is new since an older view exactly when no node of the older view has
// its members (the oracle compares member lists as text).
func TestNewSince(t *testing.T) {
	tr := toy(t)
	fig6 := Compact(tr, NewState(tr, 1), 0)
	lib2, _ := fig6.Resolve("lib1 > lib2")
	_, fig7, _ := Step(fig6, lib2, +1)
	s10, _, _ := NewState(tr, 99).SetLevel(tr, 1, regexp.MustCompile(`^lib2\.`))
	fig2, fig10 := Compact(tr, NewState(tr, 99), 0), Compact(tr, s10, 0)
	for _, c := range []struct {
		name     string
		old, v   *View
		want     int
		newNames string
	}{
		{"fig6 → fig7", fig6, fig7, 5, "lib2.Lung lib2.Muscle lib2.Nerve lib3 lib3"},
		{"fig2 → fig10", fig2, fig10, 2, "lib2 lib3.Signal.travel"},
		{"fig7 → fig6", fig7, fig6, 2, "lib2 lib3"},
		{"fig2 → fig2", fig2, fig2, 0, ""},
	} {
		got := newNames(c.v, c.v.NewSince(c.old))
		if len(got) != c.want || strings.Join(got, " ") != c.newNames {
			t.Errorf("%s: new %v, want %s", c.name, got, c.newNames)
		}
		checkNewSince(t, c.old, c.v)
	}
	other := Compact(toy(t), NewState(tr, 1), 0) // another tree
	if got := newNames(fig6, fig6.NewSince(other)); len(got) != fig6.After {
		t.Errorf("NewSince(a view of another tree) = %v, want every node", got)
	}
	if got := newNames(fig6, fig6.NewSince(nil)); len(got) != fig6.After {
		t.Errorf("NewSince(nil) = %v, want every node", got)
	}
	steps := 0
	stepChains(rand.New(rand.NewPCG(15, 15)), 1000, 30, func(i, k int, v *View, ns *State, target int32) *View {
		nv, _, _ := recompact(context.Background(), v, ns, target)
		if nv == nil {
			nv = Compact(v.Tree, ns, v.Value)
		}
		checkNewSince(t, v, nv)
		checkNewSince(t, nv, v)
		steps++
		return nv
	})
	if steps < 1000 {
		t.Errorf("only %d steps", steps)
	}
}

func newNames(v *View, isNew []bool) []string {
	var out []string
	for _, i := range v.Preorder() {
		if isNew[i] {
			out = append(out, v.Nodes[i].Name)
		}
	}
	return out
}

// checkNewSince compares v.NewSince(old) with the member lists of old.
func checkNewSince(t *testing.T, old, v *View) {
	t.Helper()
	had := map[string]bool{}
	for _, nd := range old.Nodes {
		had[fmt.Sprint(nd.Members)] = true
	}
	isNew := v.NewSince(old)
	for i, nd := range v.Nodes {
		if want := !had[fmt.Sprint(nd.Members)]; isNew[i] != want {
			t.Fatalf("node %s %v: new %v, want %v", nd.Name, nd.Members, isNew[i], want)
		}
	}
}

// TestElements: a node's elements join to its name and are the first
// elements of each member's frame (from the tree's Names, not the index),
// on random trees at random levels; a view made by hand splits names.
func TestElements(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 16))
	for range 2000 {
		tr, _ := build(randomSpecs(r, 20, 0))
		v := Compact(tr, randomLevels(r, tr), 0)
		for i, nd := range v.Nodes {
			e := v.Elements(int32(i))
			if strings.Join(e, "") != nd.Name {
				t.Fatalf("Elements(%s) = %q", nd.Name, e)
			}
			for _, m := range nd.Members {
				var frame []string
				for _, id := range tr.Names.Elems[tr.Frame[m]] {
					frame = append(frame, tr.Names.Strings[id])
				}
				if len(frame) < len(e) || !slices.Equal(frame[:len(e)], e) {
					t.Fatalf("Elements(%s) = %q, member %s has %q", nd.Name, e, tr.Name(m), frame)
				}
			}
		}
	}
	v := Assemble([]*Node{{Name: "github.com/x/y.(*T).m"}}, []int32{0})
	if got, want := v.Elements(0), analysis.Split("github.com/x/y.(*T).m", analysis.LangAuto); !slices.Equal(got, want) {
		t.Errorf("Elements of a node made by hand = %q, want %q", got, want)
	}
}
