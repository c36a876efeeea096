package commands

import (
	"cmp"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

var threadsCommand = &kernel.Command{
	Name:    "threads",
	Summary: "List the threads (or processes) of a profile's samples, with their shares.",
	Doc: "One row per thread: its name, its id and its process where the format gives them, its samples " +
		"and their value, and its share of the profile's total; heaviest first, samples without a thread " +
		"last. `by=process` adds the threads of each process up. The shares are those of the whole " +
		"profile, before filters. Every command that reads a tree takes `thread=` and `process=` (an " +
		"id, or a regular expression over the names), and so does the standing `filter`.",
	Options: []kernel.Option{
		{Name: "by", Doc: "one row per thread or per process", Default: "thread", Values: []string{"thread", "process"}},
		kernel.ValueOption,
	},
	Examples: []string{"load demo:phasedemo as run", "threads", "threads run by=process", "top n=5 thread=g19", "filter thread=^g1$", "filter off"},
	Profiles: 1,
	Run:      runThreads,
}

func runThreads(c *kernel.Call) error {
	l := c.Profile()
	v, err := c.ReadValue(l)
	if err != nil {
		return err
	}
	p := l.Profile
	vt := p.ValueTypes[v]
	shares := analysis.ThreadShares(p, v)
	cols := []string{"thread", "id", "process", "pid", "samples", vt.Type, "share"}
	if c.Opt("by") == "process" {
		shares, cols = byProcess(shares), []string{"process", "pid", "threads", "samples", vt.Type, "share"}
	}
	counted := vt.Type != "samples" // else the value is the count
	if !counted {
		cols = slices.Delete(cols, len(cols)-3, len(cols)-2)
	}
	whole := p.ReportTotal(v) // the total of every command's shares
	t := &kernel.Table{Columns: cols, Note: threadsNote(l.Name, shares, c.Opt("by"))}
	for _, s := range shares {
		row := []any{cmp.Or(s.Thread.Name, "(no thread)"), s.Thread.ID, s.Thread.Process, s.Thread.PID}
		if c.Opt("by") == "process" {
			row = []any{cmp.Or(s.Thread.Process, "(unnamed)"), s.Thread.PID, s.Thread.Name}
		}
		if counted {
			row = append(row, s.Samples)
		}
		t.Rows = append(t.Rows, append(row, kernel.ValueCell(s.Value, vt.Unit), kernel.PercentCell(s.Value, whole)))
	}
	c.Table(t)
	return nil
}

// byProcess adds the shares of each process's threads up: one share per
// process (name and id), its Thread.Name the count of threads.
func byProcess(shares []analysis.ThreadShare) []analysis.ThreadShare {
	type key struct{ name, pid string }
	sums := map[key]*analysis.ThreadShare{}
	threads := map[key]int{}
	var order []key
	for _, s := range shares {
		k := key{s.Thread.Process, s.Thread.PID}
		if sums[k] == nil {
			sums[k] = &analysis.ThreadShare{Thread: analysis.Thread{Process: k.name, PID: k.pid}}
			order = append(order, k)
		}
		sums[k].Samples += s.Samples
		sums[k].Value += s.Value
		threads[k]++
	}
	out := make([]analysis.ThreadShare, 0, len(order))
	for _, k := range order {
		s := *sums[k]
		s.Thread.Name = kernel.CountOf(threads[k], "thread")
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b analysis.ThreadShare) int {
		return cmp.Compare(max(b.Value, -b.Value), max(a.Value, -a.Value))
	})
	return out
}

// threadsNote is the line under the table.
func threadsNote(name string, shares []analysis.ThreadShare, by string) string {
	if len(shares) == 1 && shares[0].Thread == (analysis.Thread{}) {
		return name + ": the profile's samples carry no thread"
	}
	return name + ": " + kernel.CountOf(len(shares), by) + "; select with " + by + "=RE or " + by + "=ID"
}
