package commands

import (
	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

var profilesCommand = &kernel.Command{
	Name:    "profiles",
	Summary: "List the loaded profiles.",
	Doc: "One row per loaded profile, sorted by name; the current profile is marked with *, and a standing filter (see `filter`) is shown. " +
		"While an attachment (see `attach`) feeds profiles, a column live says how its collection stands.",
	Examples: []string{"load demo:profvis-toy as toy", "profiles"},
	Run:      runProfiles,
}

func runProfiles(c *kernel.Call) error {
	names := c.Session.Names()
	if len(names) == 0 {
		c.Print("no profiles loaded: use load PATH\n")
		return nil
	}
	cur := c.Session.Current()
	t := &kernel.Table{Columns: []string{"current", "name", "format", "samples", "value", "total", "source", "filter"}}
	for _, n := range names {
		l := c.Session.Get(n)
		p := l.Profile
		mark := ""
		if l == cur {
			mark = "*"
		}
		vt := p.ValueTypes[l.Value]
		total := p.Total(l.Value)
		t.Rows = append(t.Rows, []any{mark, n, p.Format, len(p.Samples), vt.Type,
			kernel.Cell{Text: analysis.FormatValue(total, vt.Unit), Value: total}, p.Source, l.Filter().String()})
	}
	addLiveColumn(c.Session, t, names)
	c.Table(t)
	return nil
}
