package compaction

import "testing"

// TestStepNothingToChange: a step that changes nothing shown is refused
// with an error naming the node (the first root here), or all, and saying
// why.
func TestStepNothingToChange(t *testing.T) {
	tr := toy(t)
	for _, c := range []struct {
		level, delta int
		node, all    string
	}{
		{1, -1, "compact lib1: already at level 1 (the top name element); nothing to compact",
			"compact all: already at level 1 (the top name element); nothing to compact"},
		{9, +1, "expand lib1.Whale.breath: already at full names; nothing to expand",
			"expand all: already at full names; nothing to expand"},
	} {
		v := Compact(tr, NewState(tr, c.level), 0)
		if _, _, err := Step(v, 0, c.delta); err == nil || err.Error() != c.node {
			t.Errorf("level %d, step %+d on %s: %v, want %s", c.level, c.delta, v.Nodes[0].Name, err, c.node)
		}
		if _, _, err := Step(v, -1, c.delta); err == nil || err.Error() != c.all {
			t.Errorf("level %d, uniform step %+d: %v, want %s", c.level, c.delta, err, c.all)
		}
	}
}

// TestStepUniform: expand all from the uniform level g shows the view at
// level g+1, and compact all from g+1 the view at g (the toy's names have
// three elements).
func TestStepUniform(t *testing.T) {
	tr := toy(t)
	for g := 1; g < 3; g++ {
		for _, c := range []struct{ from, delta, to int }{{g, +1, g + 1}, {g + 1, -1, g}} {
			_, nv, err := Step(Compact(tr, NewState(tr, c.from), 0), -1, c.delta)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := figure(nv), figure(Compact(tr, NewState(tr, c.to), 0)); got != want {
				t.Errorf("step %+d on all at level %d:\n%s\nwant the view at level %d:\n%s", c.delta, c.from, got, c.to, want)
			}
		}
	}
}

// TestStepElsewhereBroken: a step is refused only for what it breaks: in
// a view where lib breaks R1 (a level set by hand), expanding main, the
// first root, is taken.
func TestStepElsewhereBroken(t *testing.T) {
	tr, ids := build([]spec{{-1, "main.M.run", 10}, {0, "util.U.u", 1}, {-1, "lib.A.f", 1}, {2, "lib.B.g", 1}})
	level := make([]int32, tr.Len())
	for i := range level {
		level[i] = 1
	}
	level[ids[2]] = 2
	v := Compact(tr, stateWith(tr, level), 0)
	if x := v.Check(); x == nil || v.Nodes[x.Node].Name != "lib" {
		t.Fatalf("want lib to break R1 in %s", figure(v))
	}
	_, nv, err := Step(v, 0, +1)
	if err != nil {
		t.Fatalf("expand %s: %v", v.Nodes[0].Name, err)
	}
	if got, want := figure(nv), "main.M [11] → util [1], lib.A [2] → lib [1]"; got != want {
		t.Errorf("expand main = %s, want %s", got, want)
	}
}

// TestStepBrokenBelow: a step is refused only for what it breaks, also
// below the node stepped: compacting c > b is taken though a, under it,
// already absorbs a.Y.g.p two levels finer (R2, levels set by hand).
func TestStepBrokenBelow(t *testing.T) {
	tr, _ := build([]spec{{-1, "c.X.f.q", 1}, {0, "c.X", 2}, {0, "b", 2}, {2, "a.Y", 0}, {-1, "c", 3}, {-1, "a.Y", 0},
		{1, "a.X.g.p", 1}, {2, "a.Y.g.p", 2}, {-1, "b", 0}, {1, "b.X", 0}, {5, "a.Y.f", 2}})
	v := Compact(tr, stateWith(tr, []int32{2, 1, 1, 3, 5, 1, 1, 5, 1, 5, 2}), 0)
	if x := v.Check(); x == nil || x.Rule != R2 || v.Nodes[x.Node].Name != "a" {
		t.Fatalf("want a to break R2 in %s", figure(v))
	}
	b, err := v.Resolve("c > b")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Step(v, b, -1); err != nil {
		t.Errorf("compact c > b: %v", err)
	}
}
