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
	Summary: "List the Profiling Blueprint's visual patterns (A-F of the paper's Figure 2) in the current compacted tree.",
	Doc: "Each pattern is found from the numbers of the boxes `blueprint` draws (H: a box's total, its height; W: " +
		"its call count, its width), by these rules, for a box a and its callees:\n\n" +
		"- **A sequential calls** (at a): a has two callees or more, none recursive, whose heights add up to a's " +
		"(at least 1 - tolerance of it) and whose widths are each a's (within tolerance): called once per call " +
		"of a, in sequence.\n" +
		"- **B indirection** (at a): a's one callee b looks like a: same height and width.\n" +
		"- **C sporadic execution** (at b): b is called far fewer times than a (ratio times fewer or less).\n" +
		"- **D multiple execution** (at b): b is called far more times than a (ratio times or more) and is as tall: " +
		"a loop in a.\n" +
		"- **E immediate value** (at b): b is called far more times than a and takes little time (at most " +
		"tolerance of a's height).\n" +
		"- **F recursion** (at a): a box calls back into a, an ancestor of the same name; or a calls itself (direct " +
		"recursion, which compaction folds into one box).\n\n" +
		"Only callers with at least `min` of the total are read. Patterns G-I of the paper need to know which " +
		"functions mutate their receiver, which profiles do not record (see `blueprint mutating=`). The JSON is " +
		"`{\"counts\": SOURCE, \"patterns\": [{\"pattern\", \"node\", \"related\", \"evidence\"}]}`: the compacted " +
		"names of the box and of the boxes it relates to, and the numbers the rule read (raw integers in the " +
		"value's unit, with the box's handle). Rows go by descending height of their box.",
	Options:  append([]kernel.Option{{Name: "n", Doc: "patterns listed; 0 for all", Default: "50", Kind: kernel.KindNumber}}, patternOptions...),
	Examples: []string{"load demo:phasedemo as run", "level 2", "patterns", "patterns run tolerance=0.2 ratio=5 min=5% n=10"},
	Profiles: 1,
	Tree:     true,
	Run:      runPatterns,
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
		related := make([]string, len(p.Related))
		for i, r := range p.Related {
			related[i] = boxes.Boxes[r].Name
		}
		handle := v.Handle(box.Node)
		t.Rows = append(t.Rows, []any{p.Letter, blueprint.PatternNames[p.Letter], box.Name, strings.Join(related, ", "), why(boxes, p), handle})
		evidence := map[string]any{"handle": handle}
		for k, v := range p.Evidence {
			evidence[k] = v
		}
		rows = append(rows, map[string]any{"pattern": p.Letter, "node": box.Name, "related": related, "evidence": evidence})
	}
	b := t.Bundle()
	b["application/json"] = map[string]any{"counts": boxes.Counts, "patterns": rows}
	c.Out.Display(b, nil)
	return nil
}

// patternsNote is the line under the table.
func patternsNote(c *kernel.Call, bp *plotting.Blueprint, shown, all int) string {
	s := fmt.Sprintf("%s: %d pattern%s in %d boxes; heights in %s, %s from %s", c.Subject(), all, plural(all), len(bp.Boxes.Boxes),
		bp.Boxes.Value.Type, analysis.Noun(bp.Boxes.Counts), bp.Boxes.Counts)
	if shown < all {
		s += fmt.Sprintf("; showing %d (n=0 for all)", shown)
	}
	return s + fmt.Sprintf("; tolerance=%s ratio=%s min=%s", c.Opt("tolerance"), c.Opt("ratio"), c.Opt("min"))
}

// why says in words what the rule of p read; noun is what the counts
// count (calls, objects, contentions).
func why(b *blueprint.Blueprint, p blueprint.Pattern) string {
	box, vt, noun := &b.Boxes[p.Box], b.Value, analysis.Noun(b.Counts)
	amount := func(x int64) string { return analysis.FormatValue(x, vt.Unit) }
	switch p.Letter {
	case "A":
		return fmt.Sprintf("its callees take %s of its %s, each with as many %s as it (%d)", amount(p.Evidence["callees_height"].(int64)), amount(box.Total), noun, box.Calls)
	case "B":
		return fmt.Sprintf("its one callee is as tall (%s of %s), with as many %s (%d)", amount(p.Evidence["callee_height"].(int64)), amount(box.Total), noun, box.Calls)
	case "C":
		return fmt.Sprintf("%s %d, its caller's %d", noun, box.Calls, b.Boxes[p.Related[0]].Calls)
	case "D":
		return fmt.Sprintf("%g times its caller's %s, as tall (%s of %s)", p.Evidence["ratio"], noun, amount(box.Total), amount(b.Boxes[p.Related[0]].Total))
	case "E":
		return fmt.Sprintf("%g times its caller's %s, %s of its %s", p.Evidence["ratio"], noun, amount(box.Total), amount(b.Boxes[p.Related[0]].Total))
	}
	if len(p.Related) == 1 && p.Related[0] == p.Box {
		return fmt.Sprintf("calls itself (%s %d)", noun, p.Evidence["calls"])
	}
	return fmt.Sprintf("called back through %d call%s (%s %d)", p.Evidence["depth"], plural(p.Evidence["depth"].(int)), noun, p.Evidence["calls"])
}
