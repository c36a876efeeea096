package blueprint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// blueprintOfOps returns the blueprint of a one-thread recording at level
// g, by by, with its counts and first calls.
func blueprintOfOps(t *testing.T, ops string, g int, by blueprint.By) *blueprint.Blueprint {
	t.Helper()
	_, b := viewAndBlueprint(t, ops, g, by)
	return b
}

// viewAndBlueprint is blueprintOfOps with the view.
func viewAndBlueprint(t *testing.T, ops string, g int, by blueprint.By) (*compaction.View, *blueprint.Blueprint) {
	t.Helper()
	p := analysistest.Build(analysistest.Recording{Thread: "t", Ops: ops})
	tree := analysis.NewTree(p)
	c, err := blueprint.CallCounts(tree, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := analysis.FirstEntries(tree)
	v := compaction.Compact(tree, compaction.NewState(tree, g), 0)
	return v, blueprint.Of(v, c, first, nil, by)
}

// edgeLines renders edges as "from>to×calls:total", with "↻" for a
// recursive one and "↑" for another call into a box on the stack.
func edgeLines(b *blueprint.Blueprint) string {
	var out []string
	for _, e := range b.Edges {
		mark := ""
		switch {
		case e.Recursive:
			mark = "↻"
		case e.Back:
			mark = "↑"
		}
		out = append(out, fmt.Sprintf("%s>%s×%d:%d%s", b.Boxes[e.From].Name, b.Boxes[e.To].Name, e.Calls, e.Total, mark))
	}
	return strings.Join(out, " ")
}

// cycleLines renders cycles as "function@box path depth ×calls".
func cycleLines(b *blueprint.Blueprint) string {
	var out []string
	for _, c := range b.Cycles {
		var path []string
		for _, p := range c.Path {
			path = append(path, b.Boxes[p].Name)
		}
		out = append(out, fmt.Sprintf("%s@%s [%s] %d ×%d", c.Function, b.Boxes[c.Box].Name, strings.Join(path, " "), c.Depth, c.Calls))
	}
	return strings.Join(out, "; ")
}

// TestEdges: the calls between boxes, by function and by context: a call
// back into a function on the stack is recursive (by context, also a
// crossing edge to the box it calls again); a call back into a group on
// the stack at level 1 is a crossing edge but no recursion; each edge's
// total is the callee's time in those calls, once per stack.
func TestEdges(t *testing.T) {
	for _, c := range []struct {
		ops          string
		g            int
		by           blueprint.By
		edges, cycle string
	}{
		{"+main +a +b +a - - - -", 99, blueprint.ByFunction, "main>a×1:5 a>b×1:3 b>a×1:0↻", "a@a [b a] 2 ×1"},
		{"+main +a +b +a - - - -", 99, blueprint.ByContext, "main>a×1:5 a>b×1:3 b>a×1:0↻ b>a×1:1↻", "a@a [b a] 2 ×1"},
		{"+main +a.x +b.y +a.z - - - -", 1, blueprint.ByFunction, "main>a×1:5 a>b×1:3 b>a×1:0↑", ""},
		{"+main +a.x +b.y +a.z - - - -", 99, blueprint.ByFunction, "main>a.x×1:5 a.x>b.y×1:3 b.y>a.z×1:1", ""},
		{"+fib +fib +fib - - -", 99, blueprint.ByFunction, "fib>fib×2:0↻", "fib@fib [fib] 1 ×2"},
	} {
		b := blueprintOfOps(t, c.ops, c.g, c.by)
		if got := edgeLines(b); got != c.edges {
			t.Errorf("%q level %d by %s: edges %s, want %s", c.ops, c.g, c.by, got, c.edges)
		}
		if got := cycleLines(b); got != c.cycle {
			t.Errorf("%q level %d by %s: cycles %s, want %s", c.ops, c.g, c.by, got, c.cycle)
		}
	}
}

// TestFunctionPlacement: a function called from two callers is drawn
// under the one through which it takes more time, and stands for both
// view nodes, its handle's the heavier; the blueprint knows its value type
// and count source; roots have no parent.
func TestFunctionPlacement(t *testing.T) {
	view, b := viewAndBlueprint(t, "+main +b +z - - +a +z +x - - - -", 99, blueprint.ByFunction)
	var got []string
	for _, bx := range b.Boxes {
		parent := "-"
		if bx.Parent >= 0 {
			parent = b.Boxes[bx.Parent].Name
		}
		got = append(got, fmt.Sprintf("%s<%s nodes %d", bx.Name, parent, len(bx.Nodes)))
	}
	if want := "main<- nodes 1; a<main nodes 1; z<a nodes 2; x<z nodes 1; b<main nodes 1"; strings.Join(got, "; ") != want {
		t.Errorf("boxes %q, want %q", strings.Join(got, "; "), want)
	}
	z := b.Boxes[2]
	heavier := z.Nodes[0]
	if view.Nodes[z.Nodes[1]].Total > view.Nodes[heavier].Total {
		heavier = z.Nodes[1]
	}
	if view.Nodes[z.Nodes[0]].Total == view.Nodes[z.Nodes[1]].Total || z.Node != heavier || b.Value.Type != "wall" || b.Counts != analysis.CountEvents {
		t.Errorf("z's node %d of %v, value %s, counts %s; want the heavier (%d), wall, events", z.Node, z.Nodes, b.Value.Type, b.Counts, heavier)
	}
}

// TestBoxMutations: a box mutates when one of its functions does, is pure
// when all are.
func TestBoxMutations(t *testing.T) {
	p := analysistest.Build(analysistest.Recording{Thread: "t", Ops: "+main +cart.add +cart.total - - +cart.total - -"})
	tree := analysis.NewTree(p)
	m, err := avid.ParseMapping("mut", "mutates function cart.add\npure function cart.total\npure function main")
	if err != nil {
		t.Fatal(err)
	}
	muts, err := blueprint.Mutations(m, tree)
	if err != nil {
		t.Fatal(err)
	}
	for g, want := range map[int]string{1: "main:2 cart:1", 99: "main:2 cart.add:1 cart.total:2"} {
		b := blueprint.Of(compaction.Compact(tree, compaction.NewState(tree, g), 0), analysis.Counts{}, nil, muts, blueprint.ByFunction)
		var got []string
		for _, bx := range b.Boxes {
			got = append(got, fmt.Sprintf("%s:%d", bx.Name, bx.Mutates))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("level %d: %s, want %s", g, strings.Join(got, " "), want)
		}
	}
}
