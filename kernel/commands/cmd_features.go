package commands

import (
	"errors"
	"fmt"
	"sort"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
)

var featuresCommand = &kernel.Command{
	Name:    "features",
	Summary: "Define the features of a recording (AVID): conditions on calls between entities and allocations, for compare-sampling.",
	Doc: "`features NAME <<` followed by lines and a line `end` defines features in the session; `features NAME` " +
		"shows them; `features` lists them. Each line is `NAME at POINT: CONDITION, …` or `NAME from POINT to " +
		"POINT: CONDITION, …`. A point is `start`, `end`, `N%` of the run's time, or `call K FROM->TO`, the K-th " +
		"call from entity FROM to entity TO; `at P` counts from the start through P, `from P to Q` after P " +
		"through Q. A condition is `FROM->TO OP N` (calls on the arc), `allocated ENTITY OP N` or `freed ENTITY " +
		"OP N` (objects of its classes), OP one of >= > = <= <. `compare-sampling features=NAME` says for each " +
		"sampling whether each feature is evident (every condition holds), partial (the points are there, and " +
		"each failing condition asks for some calls or objects, of which the sampling shows some) or not " +
		"evident, as the AVID paper's Tables 1 and 2 do. A features= option that names none of the session's " +
		"reads a file of such lines.",
	Args: []kernel.Arg{
		{Name: "NAME", Doc: "the features' name", Optional: true},
		{Name: "LINES", Doc: "the features: a << block ending with a line end", Optional: true},
	},
	Examples: []string{"features fs <<\nF-1 at call 1 JDT-UI->JDT-CORE: JDT-CORE->JavaProject >= 20\nF-3 at end: JDT-UI->JDT-CORE >= 2\nend", "features fs", "features"},
	Run:      runFeatures,
}

func runFeatures(c *kernel.Call) error {
	name := c.Arg(0)
	switch {
	case name == "":
		return listFeatures(c)
	case len(c.Args) < 2:
		fs := sessionFeatures(c.Session)[name]
		if fs == nil {
			return c.Usagef("no features named %s: define them with `features %s <<`, their lines, and a line end", name, name)
		}
		c.Print(featuresText(fs))
		return nil
	}
	fs, err := avid.ParseFeatures(name, c.Arg(1))
	var se *analysis.SyntaxError
	if errors.As(err, &se) && se.Line > 0 {
		return fmt.Errorf("features %s: line %d of the features (line %d of the cell): %s", name, se.Line, c.Line+se.Line, se.Msg)
	}
	if err != nil {
		return fmt.Errorf("features %w", err)
	}
	sessionFeatures(c.Session)[name] = fs
	c.Print(featuresText(fs))
	return nil
}

// featuresText lists features, one a line.
func featuresText(fs *avid.Features) string {
	s := fmt.Sprintf("features %s: %d\n", fs.Name, len(fs.List))
	for _, f := range fs.List {
		s += "  " + f.String() + "\n"
	}
	return s
}

func listFeatures(c *kernel.Call) error {
	m := sessionFeatures(c.Session)
	if len(m) == 0 {
		c.Print("no features: define them with `features NAME <<`, their lines, and a line end\n")
		return nil
	}
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Print(fmt.Sprintf("features %s: %d\n", n, len(m[n].List)))
	}
	return nil
}
