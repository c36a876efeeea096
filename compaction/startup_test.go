package compaction

import (
	"slices"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestStartup: a compacted node is a start-up node when all its members
// are start-up frames and it is a root or its parent is one; the chain is
// the heaviest marked root and its heaviest marked children. Go's runtime
// starts the program (runtime.goexit, runtime.main) and its threads
// (runtime.mstart, runtime.mstart1, here calling clone); runtime.schedule
// is the runtime's own work.
func TestStartup(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	b.Profile().Lang = analysis.LangGo
	f := func(names ...string) int32 {
		var st []int32
		for _, n := range names {
			st = append(st, b.Frame(analysis.Frame{Name: n}))
		}
		return b.Stack(st)
	}
	for _, s := range []struct {
		stack int32
		w     int64
	}{
		{f("runtime.goexit", "runtime.main", "main.main", "main.work"), 5},
		{f("runtime.goexit", "runtime.main", "main.main", "runtime.mallocgc"), 2},
		{f("runtime.mstart", "runtime.schedule"), 3},
		{f("runtime.mstart", "runtime.mstart1", "clone"), 6},
		{f("main.init"), 1},
	} {
		b.Add(s.stack, []int64{s.w}, 0, false, "", nil)
	}
	tr := analysis.NewTree(b.Finish())
	for _, c := range []struct {
		level  int
		marked []string
		chain  []string
	}{
		// The chain follows the heavier of the two marked roots,
		// runtime.mstart [9].
		{1 << 20, []string{"runtime.mstart", "runtime.mstart1", "clone", "runtime.goexit", "runtime.main"}, []string{"runtime.mstart", "runtime.mstart1", "clone"}},
		// At level 1 the runtime is one node, start-up and scheduler
		// alike: not start-up, and so neither is clone below it.
		{1, nil, nil},
	} {
		v := Compact(tr, NewState(tr, c.level), 0)
		mark := v.Startup()
		var marked []string
		for _, i := range v.Preorder() {
			if mark[i] {
				marked = append(marked, v.Nodes[i].Name)
			}
		}
		if !slices.Equal(marked, c.marked) {
			t.Errorf("level %d: start-up nodes %q, want %q\n%s", c.level, marked, c.marked, figure(v))
		}
		if got := v.StartupChain(mark); !slices.Equal(got, c.chain) {
			t.Errorf("level %d: start-up chain %q, want %q", c.level, got, c.chain)
		}
	}
	if mark := Assemble([]*Node{{Name: "a"}}, []int32{0}).Startup(); !slices.Equal(mark, []bool{false}) {
		t.Errorf("a view without a call tree: start-up marks %v, want none", mark)
	}
}
