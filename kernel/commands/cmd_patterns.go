package commands

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var patternsCommand = &kernel.Command{
	Name:    "patterns",
	Summary: "List the Profiling Blueprint's visual patterns (A-F of the paper's Figure 2), with the numbers that show them.",
	Doc: "Each pattern is found from the numbers of the boxes `blueprint` draws, by function (the default) or by " +
		"context (`by=`), for a box a and the boxes it calls. H is a box's total, its height; W its call count, its " +
		"width; for a call a → b, H(a→b) is b's time in its calls from a and W(a→b) how many they were:\n\n" +
		"- **A sequential calls** (at a): a calls two boxes or more, whose heights add up to a's (at least " +
		"1 - tolerance of it), each called as many times as a (within tolerance): once per call of a, in sequence.\n" +
		"- **B indirection** (at a): a calls one box b, which looks like a: H(a→b) ≈ H(a) and W(a→b) ≈ W(a).\n" +
		"- **C sporadic execution** (at b): a calls b far fewer times than a is called (ratio times fewer or less).\n" +
		"- **D multiple execution** (at b): a calls b far more times than a is called (ratio times or more), and b " +
		"is as tall there: a loop in a.\n" +
		"- **E immediate value** (at b): a calls b far more times than a is called, and b takes little time there " +
		"(at most tolerance of a's height).\n" +
		"- **F recursion** (at a): a function is called while it is already on the stack, at its full name, directly " +
		"or through others. Names that compaction merged (a closure under its function at level 2, a namespace at " +
		"level 1), placeholders (`[unknown]`, `(below main)`, bare addresses) and different functions called back by " +
		"a framework are not recursion.\n\n" +
		"A call into a box already on the stack takes part in F only. A, C, D and E read call counts. Counts recovered " +
		"from samples in time order are lower bounds, not call counts: they are not used unless `counts=recovered`, " +
		"and then every row says \"at least N entries, from samples\"; without counts, B reads the heights alone and " +
		"F the stacks. Only callers with at least `min` of the total are read; the start-up chain above the " +
		"program's entry is no box (see `blueprint`). Patterns G-I of the paper need to know which functions mutate " +
		"their receiver, which profiles do not record (see `blueprint mutating=`). The JSON is `{\"by\": BY, " +
		"\"counts\": SOURCE, \"patterns\": [{\"pattern\", \"node\", \"related\", \"evidence\"}]}`: the " +
		"names of the box and of the boxes it relates to, and the numbers the rule read (raw integers in the value's " +
		"unit, with the box's handle); SOURCE is \"\" when there are no counts. Rows go by descending height of " +
		"their box.",
	Options:   append([]kernel.Option{{Name: "n", Doc: "patterns listed; 0 for all", Default: "50", Kind: kernel.KindNumber}}, patternOptions...),
	Examples:  []string{"load demo:phasedemo as run", "level 2", "patterns", "patterns run counts=recovered tolerance=0.2 ratio=5 min=5% n=10"},
	Profiles:  1,
	Tree:      true,
	FullNames: true,
	Run:       runPatterns,
}

func runPatterns(c *kernel.Call) error {
	n, err := c.Int("n")
	if err != nil || n < 0 {
		return c.Usagef("n=%s: write a number of patterns, 0 for all", c.Opt("n"))
	}
	bp, err := callBlueprint(c, "")
	if err != nil {
		return err
	}
	all := len(bp.Patterns)
	ps := bp.Patterns
	if n > 0 && len(ps) > n {
		ps = ps[:n]
	}
	v, err := c.View()
	if err != nil {
		return err
	}
	boxes := bp.Boxes
	t := &kernel.Table{Columns: []string{"pattern", "name", "node", "related", "why", "handle"}, Note: patternsNote(c, bp, len(ps), all)}
	rows := make([]map[string]any, 0, len(ps))
	for _, p := range ps {
		box := &boxes.Boxes[p.Box]
		related := relatedNames(boxes, p.Related)
		handle := v.Handle(box.Node)
		t.Rows = append(t.Rows, []any{p.Letter, blueprint.PatternNames[p.Letter], box.Name, strings.Join(related, ", "), why(boxes, p, c.Tree().Names), handle})
		evidence := map[string]any{"handle": handle}
		for k, v := range p.Evidence {
			evidence[k] = v
		}
		rows = append(rows, map[string]any{"pattern": p.Letter, "node": box.Name, "related": related, "evidence": evidence})
	}
	b := t.Bundle()
	b["application/json"] = map[string]any{"by": boxes.By, "counts": boxes.Counts, "patterns": rows}
	c.Out.Display(b, nil)
	return nil
}

// patternsNote is the line under the table.
func patternsNote(c *kernel.Call, bp *plotting.Blueprint, shown, all int) string {
	b := bp.Boxes
	counts := countsNote(b.Counts)
	if bp.NoCounts != "" {
		counts += " (" + bp.NoCounts + ")"
	}
	s := fmt.Sprintf("%s: %d pattern%s in %d boxes by %s; heights in %s, %s", c.Subject(), all, plural(all), len(b.Boxes), b.By,
		b.Value.Type, counts)
	if len(b.Startup) > 0 {
		s += "; from the program's entry, below " + strings.Join(b.Startup, " → ")
	}
	if shown < all {
		s += fmt.Sprintf("; showing %d (n=0 for all)", shown)
	}
	return s + fmt.Sprintf("; tolerance=%s ratio=%s min=%s", c.Opt("tolerance"), c.Opt("ratio"), c.Opt("min"))
}

// countsNote says where a blueprint's counts come from.
func countsNote(src analysis.CountSource) string {
	switch src {
	case "":
		return "no call counts"
	case analysis.CountStackDiffs:
		return "entries recovered from samples (lower bounds, counts=recovered)"
	}
	return analysis.Noun(src) + " from " + string(src)
}

// count writes n counts of source src: "2 calls", "at least 1 entry".
func count(src analysis.CountSource, n int64) string {
	one, many, at := strings.TrimSuffix(analysis.Noun(src), "s"), analysis.Noun(src), ""
	if src == analysis.CountStackDiffs {
		one, many, at = "entry", "entries", "at least "
	}
	if n == 1 {
		return at + "1 " + one
	}
	return fmt.Sprintf("%s%d %s", at, n, many)
}

// maxRelated is the most related boxes a row names: a recursion through
// hundreds of calls names its first ones and the call back.
const maxRelated = 8

// relatedNames names the boxes rel, the first maxRelated-1 and the last
// when there are more, with "… N more" between.
func relatedNames(b *blueprint.Blueprint, rel []int32) []string {
	var out []string
	for i, r := range rel {
		if len(rel) > maxRelated && i == maxRelated-1 {
			out = append(out, fmt.Sprintf("… %d more", len(rel)-maxRelated))
		}
		if len(rel) <= maxRelated || i < maxRelated-1 || i == len(rel)-1 {
			out = append(out, b.Boxes[r].Name)
		}
	}
	return out
}

// why says in words what the rule of p read; counts recovered from
// samples are said to be lower bounds. names shows function names as the
// views do.
func why(b *blueprint.Blueprint, p blueprint.Pattern, names *analysis.Names) string {
	box, vt := &b.Boxes[p.Box], b.Value
	amount := func(x any) string { return analysis.FormatValue(x.(int64), vt.Unit) }
	n := func(x any) string { return count(b.Counts, x.(int64)) }
	from := ""
	if b.Counts == analysis.CountStackDiffs {
		from = ", from samples"
	}
	ev := p.Evidence
	switch p.Letter {
	case "A":
		return fmt.Sprintf("its callees take %s of its %s, each as wide as it (%s)%s", amount(ev["callees_height"]), amount(ev["height"]), n(ev["width"]), from)
	case "B":
		if _, ok := ev["width"]; !ok {
			return fmt.Sprintf("its one callee is as tall (%s of %s); call counts unknown", amount(ev["callee_height"]), amount(ev["height"]))
		}
		return fmt.Sprintf("its one callee is as tall (%s of %s) and as wide (%s)%s", amount(ev["callee_height"]), amount(ev["height"]), n(ev["callee_width"]), from)
	case "C":
		return fmt.Sprintf("%s from a caller with %s%s", n(ev["width"]), n(ev["caller_width"]), from)
	case "D":
		return fmt.Sprintf("%s from a caller with %s%s (%g times), as tall (%s of %s)", n(ev["width"]), n(ev["caller_width"]), from, ev["ratio"], amount(ev["height"]), amount(ev["caller_height"]))
	case "E":
		return fmt.Sprintf("%s from a caller with %s%s (%g times), %s of its %s", n(ev["width"]), n(ev["caller_width"]), from, ev["ratio"], amount(ev["height"]), amount(ev["caller_height"]))
	}
	fn := names.Show(ev["function"].(string))
	s := fn + " calls itself"
	if d := ev["depth"].(int); d > 1 {
		s = fmt.Sprintf("%s is called back through %d calls", fn, d)
	}
	if calls, ok := ev["calls"]; ok {
		s += fmt.Sprintf(" (%s back%s)", n(calls), from)
	}
	if box.Name != fn {
		s += " in " + box.Name
	}
	return s
}
