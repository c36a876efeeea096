package commands

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
)

var callsCommand = &kernel.Command{
	Name:    "calls",
	Summary: "List the calls behind an arc of entities (AVID): the caller and callee functions, their calls, the first time.",
	Doc: "The arc from entity FROM to entity TO of `entities` (under the same `mapping=`) counts the calls from a " +
		"frame of FROM to a frame of TO; this lists them by function pair, most calls first, with when the pair " +
		"was first called (seconds since the profile's start), as AVID links an arc to the slice of the recording " +
		"behind it. Calls are counted as `entities` counts them: exact for an evented recording, recovered from " +
		"samples in time order otherwise. With `cel=K` it lists the calls made in cel K of `cels` (under the same `step=`), " +
		"the \"(+N)\" on the arc of that cel. In `entities … interactive=true` and `cels … interactive=true` a click on " +
		"an arc stands for this command.",
	Args: []kernel.Arg{{Name: "FROM", Doc: "the calling entity", Kind: kernel.KindText}, {Name: "TO", Doc: "the called entity", Kind: kernel.KindText}},
	Options: []kernel.Option{mappingOpt,
		{Name: "n", Doc: "rows to show (0 for all)", Default: "20", Kind: kernel.KindNumber},
		{Name: "cel", Doc: "only the calls made in this cel of cels (from 1), cut by step=", Kind: kernel.KindNumber},
		{Name: "step", Doc: "with cel=: the step of cels (entries or a duration); default: about 12 cels"}},
	Examples: []string{"load demo:shop as shop", "mapping m <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend",
		"calls UI Core mapping=m", "calls UI Core mapping=m cel=3 step=2"},
	Profiles: 1,
	Tree:     true,
	Run:      runCalls,
}

// callPair is the calls from one function to another.
type callPair struct {
	from, to int32 // frame ids
	calls    int64
	first    int64 // -1: not known
}

func runCalls(c *kernel.Call) error {
	t := c.Tree()
	em, by, err := entityMap(c, t.Profile)
	if err != nil {
		return err
	}
	n, err := c.Int("n")
	if err != nil || n < 0 {
		return c.Usagef("n=%s: write a number of rows, 0 for all", c.Opt("n"))
	}
	from, to := slices.Index(em.Names, c.Arg(0)), slices.Index(em.Names, c.Arg(1))
	if from < 0 || to < 0 {
		return c.Usagef("the entities by %s are %s", by, strings.Join(em.Names, ", "))
	}
	counts, ok := analysis.EntryCounts(t)
	if !ok {
		return fmt.Errorf("calls %s: %s has neither entry events nor samples in time order, so no calls can be counted", c.Profile().Name, c.Profile().Name)
	}
	first, _ := analysis.FirstEntries(t)
	within := ""
	if c.Has("cel") || c.Has("step") {
		if within, err = inCel(c, t, &counts, &first); err != nil {
			return err
		}
	}
	pairs := map[[2]int32]*callPair{}
	for nd, pa := range t.Parent {
		if pa < 0 || counts.Calls[nd] == 0 || em.Frame[t.Frame[pa]] != int32(from) || em.Frame[t.Frame[nd]] != int32(to) {
			continue
		}
		k := [2]int32{t.Frame[pa], t.Frame[nd]}
		p := pairs[k]
		if p == nil {
			p = &callPair{from: k[0], to: k[1], first: -1}
			pairs[k] = p
		}
		p.calls += counts.Calls[nd]
		if f := first[nd]; f >= 0 && (p.first < 0 || f < p.first) {
			p.first = f
		}
	}
	c.Table(callsTable(c, t, pairs, n, counts.Source, within))
	return nil
}

// inCel puts in counts and first the entries of the cel that cel= names,
// cut by step= as cels cuts, and returns it in words ("in cel 3 of 12").
func inCel(c *kernel.Call, t *analysis.Tree, counts *analysis.Counts, first *[]int64) (string, error) {
	if !c.Has("cel") {
		return "", c.Usagef("step= cuts the recording into cels: give cel=K too, the cel whose calls to list")
	}
	k, err := c.PositiveInt("cel")
	if err != nil {
		return "", err
	}
	step, err := celStep(c, t)
	if err != nil {
		return "", err
	}
	calls, at, n, err := avid.CelEntries(t, step, k-1)
	if err != nil {
		return "", fmt.Errorf("calls %s: %w", c.Subject(), err)
	}
	if k > n {
		return "", c.Usagef("cel=%d: this step cuts %s into %d cels", k, c.Subject(), n)
	}
	counts.Calls, *first = calls, at
	return fmt.Sprintf(" in cel %d of %d", k, n), nil
}

func callsTable(c *kernel.Call, t *analysis.Tree, pairs map[[2]int32]*callPair, n int, src analysis.CountSource, within string) *kernel.Table {
	list := make([]*callPair, 0, len(pairs))
	var total int64
	for _, p := range pairs {
		list = append(list, p)
		total += p.calls
	}
	name := func(f int32) string { return t.Names.Short(t.Profile.Frames[f].Name) }
	slices.SortFunc(list, func(a, b *callPair) int {
		return cmp.Or(cmp.Compare(b.calls, a.calls), strings.Compare(name(a.from), name(b.from)), strings.Compare(name(a.to), name(b.to)))
	})
	tb := &kernel.Table{Title: fmt.Sprintf("%s: the calls from %s to %s%s (%d in all)", c.Subject(), c.Arg(0), c.Arg(1), within, total),
		Columns: []string{"caller", "callee", "calls", "first"}, Note: fmt.Sprintf("calls counted from %s", src)}
	for i, p := range list {
		if n > 0 && i == n {
			tb.Note += fmt.Sprintf("; %d of %d function pairs (n=0 shows all)", n, len(list))
			break
		}
		when := kernel.Cell{Text: "", Value: nil}
		if p.first >= 0 {
			when = kernel.Cell{Text: fmt.Sprintf("%.6fs", float64(p.first)/1e9), Value: p.first}
		}
		tb.Rows = append(tb.Rows, []any{name(p.from), name(p.to), p.calls, when})
	}
	return tb
}
