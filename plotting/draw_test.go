package plotting

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// bottomUpOracle sums, for every view node with self weight, that weight
// into every prefix of its path of names read upwards (leaf first).
func bottomUpOracle(v *compaction.View) map[string]int64 {
	out := map[string]int64{}
	for _, n := range v.Preorder() {
		s := v.Nodes[n].Self
		if s == 0 {
			continue
		}
		key := ""
		for m := n; m >= 0; m = v.Parent(m) {
			key += "/" + v.Nodes[m].Name
			out[key] += s
		}
	}
	return out
}

func TestBottomUpOracle(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 200; i++ {
		v := randomView(r, 10+r.Intn(300))
		want := bottomUpOracle(v)
		p := choose(newBottomUp(v, v.Roots), 1<<30, 1).pic(v, false)
		if p.Hidden() != 0 {
			t.Fatalf("view %d: %d folded with an unlimited budget", i, p.Hidden())
		}
		seen := 0
		var walk func(ids []int32, key string)
		walk = func(ids []int32, key string) {
			for _, id := range ids {
				it := &p.Items[id]
				k := key + "/" + it.Name
				if want[k] != it.Total {
					t.Fatalf("view %d: bottom-up %s = %d, want %d", i, k, it.Total, want[k])
				}
				seen++
				walk(it.Kids, k)
			}
		}
		walk(p.Top, "")
		if seen != len(want) {
			t.Fatalf("view %d: %d bottom-up nodes, want %d", i, seen, len(want))
		}
	}
}

func TestDrawDeterministicAndBudget(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	v := randomView(r, 30000)
	for _, o := range []Options{
		{Layout: LayoutRadial}, {Layout: LayoutTree}, {Layout: LayoutFlame},
		{Layout: LayoutFlame, Inverted: true, Order: OrderWeight}, {Layout: LayoutFlame, MaxNodes: 100},
	} {
		a, err := Draw(v, o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Draw(v, o)
		if !bytes.Equal(a.SVG, b.SVG) || a.Text != b.Text {
			t.Errorf("Draw(%+v) twice gave different bytes", o)
		}
		max := o.MaxNodes
		if max == 0 {
			max = DefaultMaxNodes
		}
		if a.Drawn > max || len(a.SVG) > DefaultMaxBytes {
			t.Errorf("Draw(%+v): %d nodes, %d bytes; budget %d nodes, %d bytes", o, a.Drawn, len(a.SVG), max, DefaultMaxBytes)
		}
		if n := strings.Count(string(a.SVG), `<g class="pl-n"`); n != a.Drawn {
			t.Errorf("Draw(%+v): %d node groups in the SVG, Drawn = %d", o, n, a.Drawn)
		}
	}
}

func TestDrawBadOptions(t *testing.T) {
	v := makeView(&tnode{name: "a", self: 1})
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Layout: "pie"}, `unknown layout "pie": want radial, tree, flame, blueprint, sandwich or diff`},
		{Options{Order: "size"}, `unknown order "size"`},
		{Options{Layout: LayoutRadial, Inverted: true}, "inverted is for the flame layout only"},
		{Options{Roots: []int32{3}}, "no node 3"},
	} {
		if _, err := Draw(v, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Draw(%+v) = %v, want an error with %q", c.o, err, c.want)
		}
	}
}

// TestKinds: each kind of the table draws under its own name and title, with
// its default order, and the empty layout is the first kind.
func TestKinds(t *testing.T) {
	v := toyViews(t)["fig2"]
	for _, o := range append(everyKind(), Options{}) {
		o.Profile = "toy"
		o = boxed(v, o)
		pic, err := Draw(v, o)
		if err != nil {
			t.Fatal(err)
		}
		asked := o.Layout
		if err := o.check(v); err != nil {
			t.Fatal(err)
		}
		k := o.kind
		if (asked != k.Name && (asked != "" || k != &kinds[0])) || o.Order != k.Order {
			t.Errorf("Options{Layout: %q} checks to kind %s, order %s; want its own, order %s", asked, k.Name, o.Order, k.Order)
		}
		title := "toy · " + k.Title + " · "
		if o.Inverted {
			title = "toy · bottom-up " + k.Title + " · "
		}
		if !strings.Contains(string(pic.SVG), title) {
			t.Errorf("Draw(%+v): no title %q", o, title)
		}
	}
}

func TestByteBudget(t *testing.T) {
	// Long names make every node expensive: the byte budget must win.
	v := longNames(3000)
	p, err := Draw(v, Options{Layout: LayoutFlame})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SVG) > DefaultMaxBytes || p.Drawn > DefaultMaxNodes*3/4 {
		t.Errorf("Draw: %d nodes, %d bytes of SVG; want the byte budget %d to bind well before %d nodes", p.Drawn, len(p.SVG), DefaultMaxBytes, DefaultMaxNodes)
	}
}

// TestBottomUpZoom: the bottom-up graph of a zoomed subtree stops at the
// zoom root, so its weights are the subtree's.
func TestBottomUpZoom(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for i := 0; i < 100; i++ {
		v := randomView(r, 50+r.Intn(200))
		root := int32(r.Intn(len(v.Nodes)))
		if v.Nodes[root].Total == 0 {
			continue
		}
		p := choose(newBottomUp(v, []int32{root}), 1<<30, 1).pic(v, false)
		if p.Scale != v.Nodes[root].Total {
			t.Fatalf("view %d: bottom-up of node %d weighs %d, want its total %d", i, root, p.Scale, v.Nodes[root].Total)
		}
		for j := range p.Items {
			for _, n := range p.Items[j].Nodes {
				if !within(v, n, root) {
					t.Fatalf("view %d: bottom-up item %s stands for node %d outside the zoom root %d", i, p.Items[j].Name, n, root)
				}
			}
		}
	}
}

func within(v *compaction.View, n, root int32) bool {
	for ; n >= 0; n = v.Parent(n) {
		if n == root {
			return true
		}
	}
	return false
}

// TestTooltips checks every node's tooltip on the toy: the handle it names
// resolves to the node, and the commands, totals and percent are there.
// samples says n samples in words, "1 sample" for one.
func samples(n int64) string {
	if n == 1 {
		return "1 sample"
	}
	return fmt.Sprintf("%d samples", n)
}

func TestTooltips(t *testing.T) {
	for fig, v := range toyViews(t) {
		o := withTips(Options{Layout: LayoutFlame}, "toy")
		o.check(v)
		p := o.pic(v, DefaultMaxNodes)
		for i := range p.Items {
			it := &p.Items[i]
			n, h := v.Nodes[it.Nodes[0]], v.Handle(it.Nodes[0])
			tipText := tip(p, int32(i), o)
			got, err := v.Resolve(h)
			if err != nil || got != it.Nodes[0] {
				t.Errorf("%s: handle %s resolves to %d (%v), want %d", fig, h, got, err, it.Nodes[0])
			}
			for _, want := range []string{
				n.Name + "\n",
				fmt.Sprintf("total %s (%s)", samples(n.Total), analysis.Percent(n.Total, 6)),
				"self " + samples(n.Self),
				fmt.Sprintf("%d member", len(n.Members)),
				"expand toy " + h + "\n",
				"compact toy " + h,
			} {
				if !strings.Contains(tipText, want) {
					t.Errorf("%s: tooltip of %s = %q, want it to contain %q", fig, n.Name, tipText, want)
				}
			}
		}
	}
}

// TestTooltipCommands: a tooltip offers exactly the lines the caller
// gives for the node's handle (escaped in the SVG), and none without a
// function; a fold mark's tooltip ends with the caller's hint.
func TestTooltipCommands(t *testing.T) {
	v := toyViews(t)["fig6"]
	cmds := func(h string) []string { return []string{`look "` + h + `" > <x>`, "again " + h} }
	for _, c := range []struct {
		commands func(string) []string
		more     string
	}{{cmds, "ask for more"}, {nil, ""}} {
		o := Options{Layout: LayoutFlame, Commands: c.commands, More: c.more}
		o.check(v)
		p := o.pic(v, DefaultMaxNodes)
		for i := range p.Items {
			h := v.Handle(p.Items[i].Nodes[0])
			want := "handle " + h
			if c.commands != nil {
				want += "\n" + strings.Join(cmds(h), "\n")
			}
			if got := tip(p, int32(i), o); !strings.HasSuffix(got, want) {
				t.Errorf("tooltip of %s = %q, want it to end with %q", p.Items[i].Name, got, want)
			}
		}
		pic, _ := Draw(v, o)
		if got := strings.Contains(string(pic.SVG), `look &quot;`); got != (c.commands != nil) {
			t.Errorf("commands %v: the SVG has the escaped command: %v", c.commands != nil, got)
		}
		o = Options{Layout: LayoutFlame, MaxNodes: 10, More: c.more}
		wide := wideView(40)
		o.check(wide)
		p = o.pic(wide, o.MaxNodes)
		last := int32(len(p.Items) - 1)
		want := "of the profile)"
		if c.more != "" {
			want += "\n" + c.more
		}
		if got := tip(p, last, o); p.Items[last].Fold == 0 || !strings.HasSuffix(got, want) {
			t.Errorf("fold mark's tooltip = %q, want it to end with %q", got, want)
		}
	}
}

// TestDrawEmpty: a view without weight draws an empty picture, no panic.
func TestDrawEmpty(t *testing.T) {
	for _, v := range []*compaction.View{
		{},
		makeView(&tnode{name: "a", kids: []*tnode{{name: "a.b"}}}),
	} {
		for _, o := range everyKind() {
			pic, err := Draw(v, boxed(v, o))
			if err != nil {
				t.Fatal(err)
			}
			if pic.Drawn != 0 || !strings.HasSuffix(string(pic.SVG), "</svg>\n") {
				t.Errorf("Draw(empty, %+v): %d nodes drawn, SVG %q", o, pic.Drawn, pic.SVG)
			}
		}
	}
}

// TestSince: after a step, the nodes outlined as new are those whose set of
// members the previous view lacks.
func TestSince(t *testing.T) {
	views := toyViews(t)
	for _, c := range []struct {
		from, to string
		want     int
	}{{"fig6", "fig7", 5}, {"fig2", "fig10", 2}, {"fig7", "fig6", 2}, {"fig2", "fig2", 0}} {
		old := map[string]bool{}
		for _, i := range views[c.from].Preorder() {
			old[fmt.Sprint(views[c.from].Nodes[i].Members)] = true
		}
		pic, err := Draw(views[c.to], Options{Layout: LayoutFlame, Since: views[c.from]})
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Layout: LayoutFlame, Since: views[c.from]}
		o.check(views[c.to])
		p := o.pic(views[c.to], DefaultMaxNodes)
		want := 0
		for i := range p.Items {
			isNew := !old[fmt.Sprint(views[c.to].Nodes[p.Items[i].Nodes[0]].Members)]
			if isNew {
				want++
			}
			if p.IsNew(int32(i)) != isNew {
				t.Errorf("%s → %s: %s new = %v, want %v", c.from, c.to, p.Items[i].Name, p.IsNew(int32(i)), isNew)
			}
		}
		if want != c.want {
			t.Errorf("%s → %s: the oracle finds %d new nodes, want %d", c.from, c.to, want, c.want)
		}
		if got := strings.Count(string(pic.SVG), "pl-n pl-new"); got != want {
			t.Errorf("%s → %s: %d nodes outlined, want %d", c.from, c.to, got, want)
		}
		title := fmt.Sprintf(" · %d new since the last picture (outlined)</text>", want)
		if got := strings.Contains(string(pic.SVG), title); got != (want > 0) {
			t.Errorf("%s → %s: the title has %q: %v, want %v", c.from, c.to, title, got, want > 0)
		}
	}
}

// TestSlivers: shapes under 3 px wide get neither the white separator nor
// the new node's outline, which would paint over them. lib.big and
// lib.small are both new at level 2 since level 1 merged them into lib;
// only the wide one is outlined.
func TestSlivers(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "slivers.folded", []byte("main;lib.big 10000\nmain;lib.small 10\n"), analysis.LoadOptions{Format: "folded"})
	if err != nil {
		t.Fatal(err)
	}
	tr := analysis.NewTree(p)
	old := compaction.Compact(tr, compaction.NewState(tr, 1), 0)
	now := compaction.Compact(tr, compaction.NewState(tr, 2), 0)
	pic, err := Draw(now, Options{Layout: LayoutFlame, Order: OrderWeight, Since: old})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pic.SVG)
	_, small, _ := strings.Cut(svg, "<title>lib.small\n")
	small, _, _ = strings.Cut(small, "</g>")
	if small == "" || strings.Contains(small, "stroke") {
		t.Errorf("the 1.2 px sliver of lib.small is missing or has a stroke: %s", small)
	}
	if n := strings.Count(svg, `class="pl-n pl-new"`); n != 1 || !strings.Contains(svg, "2 new since") {
		t.Errorf("%d nodes outlined, want lib.big alone of the 2 new", n)
	}
	if !strings.Contains(svg, `stroke="#fff" stroke-width="0.50"/>`) {
		t.Errorf("no shape has the white separator")
	}
}

// TestZoomTitle: a picture of a subtree says what share of the profile it
// draws.
func TestZoomTitle(t *testing.T) {
	v := toyViews(t)["fig2"]
	r, err := v.Resolve("lib1.Whale.breath > lib1.Mammal.inhale > lib2.Lung.inhale > lib2.Muscle.stop")
	if err != nil {
		t.Fatal(err)
	}
	pic, err := Draw(v, Options{Layout: LayoutFlame, Roots: []int32{r}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "· samples · 2 samples (33.3% of 6 samples) ·"; !strings.Contains(string(pic.SVG), want) {
		t.Errorf("zoomed title lacks %q:\n%.300s", want, pic.SVG)
	}
}

// TestOrder: siblings are drawn heaviest first (ties by name) under
// OrderWeight and by name under OrderName, a fold mark last, in every kind.
func TestOrder(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for i := 0; i < 100; i++ {
		v := randomView(r, 20+r.Intn(300))
		for _, o := range everyKind() {
			o.Order = []string{OrderName, OrderWeight}[i%2]
			p, err := Select(v, boxed(v, Options{Layout: o.Layout, Inverted: o.Inverted, Order: o.Order, MaxNodes: 5 + r.Intn(100)}))
			if err != nil {
				t.Fatal(err)
			}
			siblings := [][]int32{p.Top}
			for j := range p.Items {
				siblings = append(siblings, p.Items[j].Kids)
			}
			for _, ids := range siblings {
				if err := ordered(p, ids, o.Order); err != "" {
					t.Fatalf("view %d, %+v: %s", i, o, err)
				}
			}
		}
	}
}

// ordered checks the drawing order of siblings; "" when it is right.
func ordered(p *Pic, ids []int32, order string) string {
	for k := 1; k < len(ids); k++ {
		a, b := &p.Items[ids[k-1]], &p.Items[ids[k]]
		switch {
		case a.Fold > 0:
			return "a fold mark before a sibling"
		case b.Fold > 0:
		case order == OrderName && a.Name > b.Name,
			order == OrderWeight && (a.Total < b.Total || a.Total == b.Total && a.Name > b.Name):
			return fmt.Sprintf("%s (%d) before %s (%d)", a.Name, a.Total, b.Name, b.Total)
		}
	}
	return ""
}

// TestTiesByName: of equally heavy siblings, the budget draws the first
// by name.
func TestTiesByName(t *testing.T) {
	root := &tnode{name: "main"}
	for _, n := range []string{"e", "c", "a", "d", "b"} {
		root.kids = append(root.kids, &tnode{name: n, self: 1})
	}
	pic, err := Draw(makeView(root), Options{Layout: LayoutFlame, MaxNodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := "main [5 samples] 100.0%"; !strings.Contains(pic.Text, want) ||
		!strings.Contains(pic.Text, "\n  a [") || !strings.Contains(pic.Text, "\n  b [") {
		t.Errorf("MaxNodes 4 of five equal children draws\n%s\nwant main, a, b and a mark", pic.Text)
	}
}

// TestDrawRandom draws random views in every layout and order with random
// budgets: always well-formed XML, within budget, one group per node.
func TestDrawRandom(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	layouts := everyKind()
	for i := 0; i < 150; i++ {
		v := randomView(r, 5+r.Intn(500))
		o := layouts[i%len(layouts)]
		o.Order = []string{OrderName, OrderWeight}[r.Intn(2)]
		o.MaxNodes = 2 + r.Intn(300)
		if r.Intn(3) == 0 {
			o.Roots = []int32{int32(r.Intn(len(v.Nodes)))}
		}
		pic, err := Draw(v, boxed(v, o))
		if err != nil {
			t.Fatalf("view %d, %+v: %v", i, o, err)
		}
		if pic.Drawn > o.MaxNodes {
			t.Errorf("view %d, %+v: %d nodes drawn", i, o, pic.Drawn)
		}
		d := xml.NewDecoder(bytes.NewReader(pic.SVG))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("view %d, %+v: SVG is not XML: %v", i, o, err)
			}
		}
		if n := strings.Count(string(pic.SVG), `<g class="pl-n`); n != pic.Drawn {
			t.Errorf("view %d, %+v: %d node groups, Drawn %d", i, o, n, pic.Drawn)
		}
	}
}

// TestTreeSlots: a wide tidy tree gives each leaf treeSlotMin pixels, not
// less, and a small one treeSlot.
func TestTreeSlots(t *testing.T) {
	for _, c := range []struct {
		n    int
		slot float64
	}{{100, treeSlotMin}, {4, treeSlot}} {
		v := wideView(c.n)
		p, err := Select(v, Options{Layout: LayoutTree})
		if err != nil {
			t.Fatal(err)
		}
		pic, _ := Draw(v, Options{Layout: LayoutTree})
		want := fmt.Sprintf(`width="%.0f"`, math.Max(float64(Leaves(p))*c.slot, 600)+2*margin)
		if !strings.Contains(string(pic.SVG), want) {
			t.Errorf("%d leaves: want %s:\n%.200s", Leaves(p), want, pic.SVG)
		}
	}
}
