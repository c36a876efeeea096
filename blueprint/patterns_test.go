package blueprint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// blueprintOf builds a blueprint by context from lines "name total
// calls", indented by two spaces per level, callees in order: each box
// called from its parent as many times as its width. A box named as one
// above it is a call back: its edge is a crossing one, and the function
// has a cycle at its outermost box.
func blueprintOf(spec string) *Blueprint {
	b := &Blueprint{By: ByContext, Counts: "events"}
	var path []int32 // the last box at each depth
	cycles := map[string]bool{}
	for _, l := range strings.Split(strings.Trim(spec, "\n"), "\n") {
		depth := (len(l) - len(strings.TrimLeft(l, " "))) / 2
		f := strings.Fields(l)
		total, _ := strconv.ParseInt(f[1], 10, 64)
		calls, _ := strconv.ParseInt(f[2], 10, 64)
		i := int32(len(b.Boxes))
		box := Box{Name: f[0], Node: i, Parent: -1, Total: total, Calls: calls, First: -1}
		path = append(path[:depth], i)
		b.Boxes = append(b.Boxes, box)
		if depth == 0 {
			b.Roots = append(b.Roots, i)
			continue
		}
		box.Parent = path[depth-1]
		b.Boxes[i].Parent = box.Parent
		b.Boxes[box.Parent].Kids = append(b.Boxes[box.Parent].Kids, i)
		e := Edge{From: box.Parent, To: i, Calls: calls, Total: total}
		for d, a := range path[:depth] {
			if b.Boxes[a].Name == box.Name {
				e.Back, e.Recursive = true, true
				if !cycles[box.Name] {
					cycles[box.Name] = true
					b.Cycles = append(b.Cycles, Cycle{Box: a, Function: box.Name, Path: slices.Clone(path[d+1 : depth+1]), Depth: depth - d, Calls: calls})
				}
				break
			}
		}
		b.Edges = append(b.Edges, e)
	}
	return b
}

// patternLines renders patterns as "LETTER box [related]".
func patternLines(b *Blueprint, ps []Pattern) string {
	var out []string
	for _, p := range ps {
		var rel []string
		for _, r := range p.Related {
			rel = append(rel, b.Boxes[r].Name)
		}
		out = append(out, fmt.Sprintf("%s %s %v", p.Letter, b.Boxes[p.Box].Name, rel))
	}
	return strings.Join(out, "; ")
}

// TestPatternRules: each rule on a blueprint that shows exactly its
// pattern, and just past its boundary, where nothing is found.
func TestPatternRules(t *testing.T) {
	for _, c := range []struct{ name, spec, want string }{
		{"A", "a 30 1\n  b 10 1\n  c 10 1\n  d 10 1", "A a [b c d]"},
		{"A, callees 90% of a", "a 30 1\n  b 9 1\n  c 9 1\n  d 9 1", "A a [b c d]"},
		{"no A: callees 87% of a", "a 30 1\n  b 9 1\n  c 9 1\n  d 8 1", ""},
		{"no A: a callee in a loop", "a 30 10\n  b 10 10\n  c 10 12\n  d 10 10", ""},
		{"B", "a 100 4\n  b 95 4", "B a [b]"},
		{"no B: b shorter", "a 100 4\n  b 89 4", ""},
		{"no B: b called more", "a 100 4\n  b 100 5", ""},
		{"C", "main 100 1\n  a 50 20\n    b 5 2", "C b [a]"},
		{"no C: b called 1/9 as often", "main 100 1\n  a 50 18\n    b 5 2", ""},
		{"D", "main 100 1\n  a 50 1\n    b 46 10", "D b [a]"},
		{"no D: b not as tall", "main 100 1\n  a 50 1\n    b 44 10", ""},
		{"E", "main 100 1\n  a 50 1\n    b 5 50", "E b [a]"},
		{"no E: b not little", "main 100 1\n  a 50 1\n    b 6 50", ""},
		{"F", "main 100 1\n  a 50 1\n    b 30 1\n      a 10 2", "F a [b a]"},
		{"F, direct", "main 100 1\n  fib 50 1\n    fib 49 176", "F fib [fib]"},
		// One F per recursion, at its outermost box; the boxes inside are read as any others.
		{"inside recursion", "main 100 1\n  a 50 1\n    a 49 3\n      a 48 9\n        c 47 90", "F a [a]; D c [a]"},
		// Below 1% of the total, no caller is read; at 1%, it is.
		{"min", "main 1000 1\n  a 600 1\n  x 9 1\n    y 9 1", ""},
		{"min, at 1%", "main 1000 1\n  a 600 1\n  x 10 1\n    y 10 1", "B x [y]"},
		{"no D: a caller never seen entered", "main 100 1\n  a 50 0\n    b 48 5", ""},
		{"ordered by height", "main 100 1\n  a 60 1\n    b 57 1\n  c 40 1\n    d 39 1", "A main [a c]; B a [b]; B c [d]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := blueprintOf(c.spec)
			if got := patternLines(b, b.Patterns(DefaultPatternOptions)); got != c.want {
				t.Errorf("Patterns = %q, want %q", got, c.want)
			}
		})
	}
}

// TestPatternOptions: a looser tolerance finds B, a smaller ratio C, a
// lower minimum the small caller.
func TestPatternOptions(t *testing.T) {
	for _, c := range []struct {
		spec string
		o    PatternOptions
		want string
	}{
		{"a 100 4\n  b 80 4", PatternOptions{Tolerance: 0.2, Ratio: 10, Min: 0.01}, "B a [b]"},
		{"main 100 1\n  a 50 5\n    b 5 1", PatternOptions{Tolerance: 0.1, Ratio: 5, Min: 0.01}, "C b [a]"},
		{"main 1000 1\n  a 600 1\n  x 9 1\n    y 9 1", PatternOptions{Tolerance: 0.1, Ratio: 10, Min: 0.005}, "B x [y]"},
	} {
		b := blueprintOf(c.spec)
		if got := patternLines(b, b.Patterns(c.o)); got != c.want {
			t.Errorf("Patterns(%q, %+v) = %q, want %q", c.spec, c.o, got, c.want)
		}
	}
}

func TestPatternEvidence(t *testing.T) {
	for spec, want := range map[string]string{
		"main 100 1\n  a 50 1\n    b 5 50":  "map[caller_height:50 caller_width:1 height:5 ratio:50 width:50]",
		"main 100 1\n  a 50 1\n    b 48 30": "map[caller_height:50 caller_width:1 height:48 ratio:30 width:30]",
		"main 100 1\n  a 50 40\n    b 5 3":  "map[caller_height:50 caller_width:40 height:5 ratio:13.33 width:3]",
	} {
		b := blueprintOf(spec)
		p := b.Patterns(DefaultPatternOptions)
		if len(p) != 1 || fmt.Sprint(p[0].Evidence) != want {
			t.Errorf("%q: evidence %v, want %s", spec, p, want)
		}
	}
}
