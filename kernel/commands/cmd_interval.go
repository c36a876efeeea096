package commands

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

var intervalCommand = &kernel.Command{
	Name:    "interval",
	Summary: "Show one interval of the last phases run: its heaviest names and its phase's (or, with phase=K, a phase's intervals).",
	Doc: "Reads the profile's last `phases` run. `interval NAME I` draws the run's intervals as a strip coloured by " +
		"phase, interval I outlined, with two tables: the names interval I counts most (its interval vector, in " +
		"the run's `count`), and the heaviest names of its phase's vector. `phase=K` outlines phase K's intervals " +
		"and lists them. Alone, it draws the strip. With `interactive=true` (or `set interactive=true`, or " +
		"`phases … interactive=true`) the strip answers clicks: an interval stands for `interval NAME I`, a " +
		"phase of the legend for `interval NAME phase=K`.",
	Args: []kernel.Arg{{Name: "I", Doc: "the interval's number (0 is the first)", Kind: kernel.KindNumber, Optional: true}},
	Options: []kernel.Option{
		{Name: "phase", Doc: "a phase's id: outline and list its intervals", Kind: kernel.KindNumber},
		{Name: "n", Doc: "rows of each table", Default: "10", Kind: kernel.KindNumber},
		kernel.InteractiveOption,
	},
	Examples: []string{"load demo:phasedemo as run", "phases run", "interval run 3", "interval run phase=1"},
	Profiles: 1,
	Run:      runInterval,
}

func runInterval(c *kernel.Call) error {
	l := c.Profile()
	st := phasesKey.Get(l)
	if st == nil || st.Result == nil {
		return c.Usagef("%s has no phases run: run phases %s first", l.Name, l.Name)
	}
	n, err := c.PositiveInt("n")
	if err != nil {
		return err
	}
	pick, err := intervalPick(c, st)
	if err != nil {
		return err
	}
	svg, err := plotting.PhaseStrip(st.Vectors, st.Result, "intervals of "+l.Name+" by phase", marked(pick, st))
	if err != nil {
		return err
	}
	c.Explore(svg, timelineText(l.Name, st), intervalExplore(c, l.Name))
	switch {
	case pick.interval >= 0:
		c.Table(intervalNames(l, st, pick.interval, n))
		c.Table(phaseNames(l, st, int(st.Result.Of[pick.interval]), n))
	case pick.phase >= 0:
		c.Table(phaseIntervals(st, pick.phase, n))
	}
	return nil
}

// pick is what interval outlines: one interval, or a phase's intervals.
type pick struct{ interval, phase int }

func intervalPick(c *kernel.Call, st *PhaseState) (pick, error) {
	p := pick{-1, -1}
	if c.Arg(0) != "" {
		i, err := strconv.Atoi(c.Arg(0))
		if err != nil || i < 0 || i >= st.Vectors.Len() {
			return p, c.Usagef("interval %q: the run has intervals 0 to %d", c.Arg(0), st.Vectors.Len()-1)
		}
		p.interval = i
	}
	if c.Has("phase") {
		k, err := c.Int("phase")
		if err != nil || st.Result.Phase(k) == nil {
			return p, c.Usagef("phase=%s: the run's phases are listed by phases %s", c.Opt("phase"), c.Profile().Name)
		}
		p.phase = k
	}
	return p, nil
}

// marked says which intervals the strip outlines.
func marked(p pick, st *PhaseState) func(int) bool {
	return func(i int) bool { return i == p.interval || (p.phase >= 0 && int(st.Result.Of[i]) == p.phase) }
}

// intervalNames lists the names interval i counts most.
func intervalNames(l *kernel.Loaded, st *PhaseState, i, n int) *kernel.Table {
	v := st.Vectors
	type entry struct {
		name  string
		count float64
	}
	var es []entry
	var sum float64
	for k := v.Off[i]; k < v.Off[i+1]; k++ {
		es = append(es, entry{v.Names[v.Idx[k]], v.Val[k]})
		sum += v.Val[k]
	}
	sort.SliceStable(es, func(a, b int) bool { return es[a].count > es[b].count })
	t := &kernel.Table{Title: fmt.Sprintf("interval %d of %s: %s, phase %d; the names it counts most (%s)", i, l.Name,
		span(v, i, i+1), st.Result.Of[i], st.Count), Columns: []string{"name", "count", "share"}}
	for _, e := range es[:min(n, len(es))] {
		t.Rows = append(t.Rows, []any{l.Tree().Names.Short(e.name), e.count, kernel.Cell{Text: pct(e.count / max(sum, 1)), Value: e.count / max(sum, 1)}})
	}
	return t
}

// phaseNames lists the heaviest names of phase k's vector.
func phaseNames(l *kernel.Loaded, st *PhaseState, k, n int) *kernel.Table {
	ph := st.Result.Phase(k)
	t := &kernel.Table{Title: fmt.Sprintf("phase %d %s of %s: the heaviest names of its vector", k, ph.Label, l.Name),
		Columns: []string{"name", "weight"}, Precision: 3}
	vec := ph.Vector()
	idx := make([]int, 0, len(vec))
	for j, x := range vec {
		if x > 0 {
			idx = append(idx, j)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return vec[idx[a]] > vec[idx[b]] })
	for _, j := range idx[:min(n, len(idx))] {
		t.Rows = append(t.Rows, []any{l.Tree().Names.Short(st.Result.Names[j]), vec[j]})
	}
	return t
}

// phaseIntervals lists phase k's intervals, the first n.
func phaseIntervals(st *PhaseState, k, n int) *kernel.Table {
	v, r := st.Vectors, st.Result
	t := &kernel.Table{Title: strings.TrimSpace(fmt.Sprintf("the intervals of phase %d %s", k, r.Phase(k).Label)), Columns: []string{"interval", "time", "samples"}}
	total := 0
	for i, id := range r.Of {
		if int(id) != k {
			continue
		}
		total++
		if len(t.Rows) < n {
			samples := int64(0)
			if i < len(v.Samples) {
				samples = v.Samples[i]
			}
			t.Rows = append(t.Rows, []any{i, span(v, i, i+1), samples})
		}
	}
	if total > len(t.Rows) {
		t.Note = fmt.Sprintf("%d of its %d intervals (n= shows more)", len(t.Rows), total)
	}
	return t
}

// pct shows a share as a percentage with two decimals.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + "%" }
