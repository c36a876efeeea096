package plotting

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/compaction"
)

// call is one call of a hand-made recording: a frame, its entry and exit,
// and the calls it makes.
type call struct {
	name        string
	enter, exit int64
	calls       []call
}

// record builds an evented recording of the calls on one thread: its
// calls, and a sample per interval between two events, on the stack of the
// interval, weighing its length.
func record(calls ...call) *analysis.Profile {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "wall", Unit: "nanoseconds"})
	var stack []int32
	var last int64
	sample := func(t int64) {
		if t > last && len(stack) > 0 {
			b.Add(b.Stack(stack), []int64{t - last}, last, true, "", nil)
		}
		last = t
	}
	var walk func(c call)
	walk = func(c call) {
		sample(c.enter)
		f := b.Frame(analysis.Frame{Name: c.name})
		stack = append(stack, f)
		b.Enter("", f, c.enter)
		for _, k := range c.calls {
			walk(k)
		}
		sample(c.exit)
		stack = stack[:len(stack)-1]
		b.Exit("", c.exit)
	}
	for _, c := range calls {
		walk(c)
	}
	return b.Finish()
}

// repeat is n calls of name, each width long, every step from start.
func repeat(name string, n int, start, step, width int64, calls ...call) []call {
	out := make([]call, n)
	for i := range out {
		t := start + int64(i)*step
		out[i] = call{name, t, t + width, calls}
	}
	return out
}

// program is a recording with the patterns A (main, load), D (step) and F
// (walk calls visit, which calls walk).
func program() *analysis.Profile {
	return record(call{"main", 0, 1000, []call{
		{"load", 0, 300, []call{{"read", 10, 150, nil}, {"decode", 150, 295, nil}}},
		{"work", 300, 900, repeat("step", 20, 301, 30, 29)},
		{"walk", 900, 990, []call{{"visit", 905, 985, []call{{"walk", 910, 980, nil}}}}},
	}})
}

// blueprintOfProfile compacts p at level g and returns its view and
// blueprint, with p's own counts and first entries.
func blueprintOfProfile(t *testing.T, p *analysis.Profile, g int, by blueprint.By) (*compaction.View, *Blueprint) {
	t.Helper()
	tree := analysis.NewTree(p)
	v := compaction.Compact(tree, compaction.NewState(tree, g), 0)
	c, err := blueprint.CallCounts(tree, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := analysis.FirstEntries(tree)
	boxes := blueprint.Of(v, c, first, nil, by)
	return v, &Blueprint{Boxes: boxes, Patterns: boxes.Patterns(blueprint.DefaultPatternOptions)}
}

// boxLines renders boxes as "name total ×calls", indented, in pre-order,
// each followed by the calls the drawing tree does not show: "↻callee×n"
// for a recursion, "→callee×n" for another call.
func boxLines(b *blueprint.Blueprint) string {
	var out strings.Builder
	var walk func(i int32, depth int)
	walk = func(i int32, depth int) {
		bx := &b.Boxes[i]
		fmt.Fprintf(&out, "%s%s %d ×%d", strings.Repeat("  ", depth), bx.Name, bx.Total, bx.Calls)
		for _, e := range b.Edges {
			if e.From == i && (e.To == i || b.Boxes[e.To].Parent != i) {
				fmt.Fprintf(&out, " %s%s×%d", map[bool]string{true: "↻", false: "→"}[e.Recursive], b.Boxes[e.To].Name, e.Calls)
			}
		}
		out.WriteString("\n")
		for _, k := range bx.Kids {
			walk(k, depth+1)
		}
	}
	for _, r := range b.Roots {
		walk(r, 0)
	}
	return out.String()
}

// TestBlueprintOf: a compacted node's count is the calls into it from
// outside (its highest members'), callees go in order of their first call,
// and calls back to an ancestor's name are recursive.
func TestBlueprintOf(t *testing.T) {
	a := func(t int64) call { return call{"lib.a", t, t + 15, repeat("lib.b", 2, t+1, 2, 1)} }
	p := record(call{"main", 0, 100, []call{{"z.first", 1, 2, nil}, a(10), a(30), a(50), {"lib.b", 80, 81, nil}}})
	_, bp := blueprintOfProfile(t, p, 1, blueprint.ByContext)
	want := "main 100 ×1\n  z 1 ×1\n  lib 46 ×4\n"
	if got := boxLines(bp.Boxes); got != want || !bp.Boxes.Timed || bp.Boxes.Counts != analysis.CountEvents {
		t.Errorf("level 1:\n%swant (timed, events):\n%s", got, want)
	}
	_, bp = blueprintOfProfile(t, program(), 99, blueprint.ByContext)
	want = "main 1000 ×1\n  load 300 ×1\n    read 140 ×1\n    decode 145 ×1\n  work 600 ×1\n    step 580 ×20\n" +
		"  walk 90 ×1\n    visit 80 ×1 ↻walk×1\n      walk 70 ×1\n"
	if got := boxLines(bp.Boxes); got != want {
		t.Errorf("program:\n%swant:\n%s", got, want)
	}
	// fib calling fib is one compacted node: its three calls from itself are
	// its recursion, its one call from main its count.
	fib := record(call{"main", 0, 100, []call{{"fib", 1, 90, []call{{"fib", 2, 40, []call{{"fib", 3, 10, nil}}}, {"fib", 41, 80, nil}}}}})
	_, bp = blueprintOfProfile(t, fib, 99, blueprint.ByContext)
	if got, want := boxLines(bp.Boxes), "main 100 ×1\n  fib 89 ×1 ↻fib×3\n"; got != want {
		t.Errorf("fib:\n%swant:\n%s", got, want)
	}
	// By function, fib is as wide as its four calls, and walk is one box
	// that visit calls back.
	_, bp = blueprintOfProfile(t, fib, 99, blueprint.ByFunction)
	if got, want := boxLines(bp.Boxes), "main 100 ×1\n  fib 89 ×4 ↻fib×3\n"; got != want {
		t.Errorf("fib by function:\n%swant:\n%s", got, want)
	}
	_, bp = blueprintOfProfile(t, program(), 99, blueprint.ByFunction)
	want = "main 1000 ×1\n  load 300 ×1\n    read 140 ×1\n    decode 145 ×1\n  work 600 ×1\n    step 580 ×20\n" +
		"  walk 90 ×2\n    visit 80 ×1 ↻walk×1\n"
	if got := boxLines(bp.Boxes); got != want {
		t.Errorf("program by function:\n%swant:\n%s", got, want)
	}
}

// TestBlueprintMutations: a compacted node mutates when one of its members
// does, is pure when all are.
func TestBlueprintMutations(t *testing.T) {
	p := record(call{"main", 0, 100, []call{{"cart.add", 1, 50, []call{{"cart.total", 2, 10, nil}}}, {"cart.total", 60, 70, nil}}})
	tree := analysis.NewTree(p)
	m, err := avid.ParseMapping("mut", "mutates function cart.add\npure function cart.total\npure function main")
	if err != nil {
		t.Fatal(err)
	}
	muts, err := blueprint.Mutations(m, tree)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := blueprint.CallCounts(tree, p, 0)
	for _, g := range []int{1, 99} {
		v := compaction.Compact(tree, compaction.NewState(tree, g), 0)
		var got []string
		for _, b := range blueprint.Of(v, c, nil, muts, blueprint.ByContext).Boxes {
			got = append(got, fmt.Sprintf("%s:%d", b.Name, b.Mutates))
		}
		want := map[int]string{1: "[main:2 cart:1]", 99: "[main:2 cart.add:1 cart.total:2 cart.total:2]"}[g]
		if fmt.Sprint(got) != want {
			t.Errorf("level %d: mutations %v, want %s", g, got, want)
		}
	}
}

// TestBlueprintLayout: boxes as tall as their totals (linear) and as wide
// as the log of their counts, each callee's top a gap below its caller's
// bottom, and no two boxes overlapping.
func TestBlueprintLayout(t *testing.T) {
	v, bp := blueprintOfProfile(t, program(), 99, blueprint.ByContext)
	p, err := Select(v, Options{Layout: LayoutBlueprint, Blueprint: bp})
	if err != nil {
		t.Fatal(err)
	}
	calls := func(it *Item) int64 { return bp.Boxes.Boxes[bp.boxOf(it)].Calls }
	s := scalesOf(p, bp, calls)
	if s.height != 1000 || s.width != blueprintCalls {
		t.Errorf("scales %+v, want height 1000 (the tallest) and width %d", s, blueprintCalls)
	}
	blocks := BlueprintLayout(p, s, calls)
	for i, b := range blocks {
		it := &p.Items[i]
		wantH := math.Max(blueprintMinH, blueprintHeight*float64(it.Total)/1000)
		wantW := blueprintMinW + (blueprintWidth-blueprintMinW)*math.Log1p(float64(calls(it)))/math.Log1p(blueprintCalls)
		if math.Abs(b.H-wantH) > 1e-9 || math.Abs(b.W-wantW) > 1e-9 {
			t.Errorf("%s: %gx%g, want %gx%g", it.Name, b.W, b.H, wantW, wantH)
		}
		if pa := it.Parent; pa >= 0 && b.Y != blocks[pa].Y+blocks[pa].H+blueprintGapY {
			t.Errorf("%s at y=%g, want a gap below %s (bottom %g)", it.Name, b.Y, p.Items[pa].Name, blocks[pa].Y+blocks[pa].H)
		}
		for j, o := range blocks[:i] {
			if b.X < o.X+o.W && o.X < b.X+b.W && b.Y < o.Y+o.H && o.Y < b.Y+b.H {
				t.Errorf("%s overlaps %s", it.Name, p.Items[j].Name)
			}
		}
	}
}

// TestBlueprintScales: height= and width= set the scales, within the
// stretch that bounds the picture.
func TestBlueprintScales(t *testing.T) {
	v, bp := blueprintOfProfile(t, program(), 99, blueprint.ByContext)
	p, _ := Select(v, Options{Layout: LayoutBlueprint, Blueprint: bp})
	calls := func(it *Item) int64 { return 1e9 }
	for _, c := range []struct {
		height, width int64
		want          scales
	}{
		{2000, 100, scales{height: 2000, width: 100}},
		{1, 1, scales{height: 1000 / blueprintStretch, width: math.Expm1(math.Log1p(1e9) / blueprintStretch)}},
	} {
		bp.Height, bp.Width = c.height, c.width
		if got := scalesOf(p, bp, calls); math.Abs(got.height-c.want.height) > 1e-9 || math.Abs(got.width-c.want.width) > 1e-9 {
			t.Errorf("height=%d width=%d: scales %+v, want %+v", c.height, c.width, got, c.want)
		}
	}
}

// TestGoldenBlueprint: the program's blueprint, with its badges (A at
// main and load, D at step, F at walk) and the crossing edge of walk's
// recursion.
func TestGoldenBlueprint(t *testing.T) {
	v, bp := blueprintOfProfile(t, program(), 99, blueprint.ByContext)
	pic, err := Draw(v, withTips(Options{Layout: LayoutBlueprint, Blueprint: bp}, "program"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "program-blueprint.svg", pic.SVG)
	svg := string(pic.SVG)
	for _, want := range []string{">A</text>", ">D</text>", ">F</text>", "recursion (pattern F): visit calls back walk",
		"calls 20 (events)", "pattern D: multiple execution (with work)", `marker-end="url(#b-arrow)"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	if n := len(regexp.MustCompile(`<path d="M[^"]*C`).FindAllString(svg, -1)); n != 1 {
		t.Errorf("%d crossing edges, want 1", n)
	}
}

// TestBlueprintStartupLabelFits: the start-up chain's label stays inside
// the picture when the chain's bar starts right of another box and the
// label is longer than what is left of the picture's width.
func TestBlueprintStartupLabelFits(t *testing.T) {
	chain := call{"main", 310, 990, nil}
	for _, name := range []string{"__libc_start_call_main", "__libc_start_main", "_start", "_dl_start_user", "_dl_start_final", "_dl_start",
		"std::rt::lang_start", "std::rt::lang_start_internal", "BaseThreadInitThunk", "RtlUserThreadStart", "[a loader's code at an address it did not name]"} {
		chain = call{name, 300, 1000, []call{chain}}
	}
	p := record(call{"init", 0, 300, nil}, chain)
	v, bp := blueprintOfProfile(t, p, 99, blueprint.ByFunction)
	if len(bp.Boxes.Startup) == 0 {
		t.Fatal("no start-up chain")
	}
	pic, err := Draw(v, Options{Layout: LayoutBlueprint, Blueprint: bp})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pic.SVG)
	var width float64
	fmt.Sscanf(svg[strings.Index(svg, `width="`):], `width="%g"`, &width)
	label := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*text-anchor="start">(start-up: [^<]*)</text>`).FindStringSubmatch(svg)
	if label == nil {
		t.Fatalf("no start-up label in\n%s", svg)
	}
	var x float64
	fmt.Sscanf(label[1], "%g", &x)
	if end := x + float64(len([]rune(label[2])))*charWidth; end > width {
		t.Errorf("the label %q ends at %.1f, past the picture's %.0f", label[2], end, width)
	}
}

// TestBlueprintSpan: a function that is a root and is called inside
// another root is one box holding both places; the picture spans the
// recording's total once, not that box's weight twice.
func TestBlueprintSpan(t *testing.T) {
	p := record(call{"a", 0, 100, []call{{"f", 10, 50, nil}}}, call{"f", 100, 150, nil})
	v, bp := blueprintOfProfile(t, p, 99, blueprint.ByFunction)
	pic, err := Draw(v, Options{Layout: LayoutBlueprint, Blueprint: bp})
	if err != nil {
		t.Fatal(err)
	}
	title := regexp.MustCompile(`<text[^>]*>(blueprint · [^<]*)</text>`).FindStringSubmatch(string(pic.SVG))
	if title == nil || !strings.HasPrefix(title[1], "blueprint · wall · 150ns · ") {
		t.Errorf("title %q, want the picture to span 150ns, the whole recording (a 100ns with its call of f, f 50ns)", title)
	}
}
