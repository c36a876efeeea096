package commands

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
)

var mappingCommand = &kernel.Command{
	Name:    "mapping",
	Summary: "Define a mapping of frames to entities (AVID), for entities, cels, compare-sampling and level using=.",
	Doc: "`mapping NAME <<` followed by lines and a line `end` defines a mapping in the session; `mapping NAME` " +
		"shows it; `mapping` lists them. Each line is `ENTITY class PATTERN`, as in the AVID paper's mapping " +
		"files: `JDK class java.*`, `Path class org.eclipse.core.runtime.Path`. The word `class` may also be " +
		"`package`, `module`, `namespace`, `file` or `function`, for the reader: all match the same way. A " +
		"pattern is matched against a frame's displayed name; `*` matches anything; a pattern without `*` also " +
		"takes the names that continue it with a new name element (a class takes its methods). Go, C++, Python " +
		"and JavaScript names work the same: `net/http.*`, `std::*`, `json/*`. The first line that matches " +
		"wins; frames no line matches are the entity `(other)`. A line that is not `ENTITY class PATTERN` is " +
		"an error naming it; `#` starts a comment line. A mapping= option that names no mapping of the " +
		"session reads a file of such lines.",
	Args: []kernel.Arg{
		{Name: "NAME", Doc: "the mapping's name", Optional: true},
		{Name: "LINES", Doc: "the mapping's lines: a << block ending with a line end", Optional: true},
	},
	Examples: []string{"mapping shop <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend", "mapping shop", "mapping"},
	Run:      runMapping,
}

func runMapping(c *kernel.Call) error {
	name := c.Arg(0)
	switch {
	case name == "":
		return listMappings(c)
	case len(c.Args) < 2:
		m := mappings(c.Session)[name]
		if m == nil {
			return c.Usagef("no mapping named %s: define it with `mapping %s <<`, its lines, and a line end", name, name)
		}
		c.Print(mappingSummary(m) + "\n" + m.String())
		return nil
	}
	m, err := avid.ParseMapping(name, c.Arg(1))
	var se *analysis.SyntaxError
	if errors.As(err, &se) && se.Line > 0 { // the block starts on the line after the command
		return fmt.Errorf("mapping %s: line %d of the mapping (line %d of the cell): %s", name, se.Line, c.Line+se.Line, se.Msg)
	}
	if err != nil {
		return fmt.Errorf("mapping %w", err)
	}
	mappings(c.Session)[m.Name] = m
	c.Print(mappingSummary(m) + "\n")
	return nil
}

func mappingSummary(m *avid.Mapping) string {
	return fmt.Sprintf("mapping %s: %d lines, %d entities: %s", m.Name, m.Len(), len(m.Entities), strings.Join(m.Entities, ", "))
}

func listMappings(c *kernel.Call) error {
	if len(mappings(c.Session)) == 0 {
		c.Print("no mappings: define one with `mapping NAME <<`, its lines, and a line end\n")
		return nil
	}
	var names []string
	for n := range mappings(c.Session) {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Print(mappingSummary(mappings(c.Session)[n]) + "\n")
	}
	return nil
}
