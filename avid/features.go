package avid

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// A Feature is what the paper's case studies look for in a recording's
// animation (seed 001, §3): conditions on the calls between entities and
// on the objects they allocate, at a point of the run or between two.
// Written one a line:
//
//	# NAME at POINT: CONDITION, CONDITION…
//	# NAME from POINT to POINT: CONDITION, …
//	F-1 at call 1 JDT-UI->JDT-CORE: JDT-CORE->JavaProject >= 20
//	F-2 from call 1 JDT-UI->JDT-CORE to end: JDT-CORE->JavaProject >= 51
//	F-3 at end: ImportWizard->Path >= 1000, allocated JDK >= 100000
//
// A point is start, end, N% (of the run's time, from its first event to
// its last), or call K FROM->TO (the K-th call from entity FROM to entity
// TO, as the recording judged shows them). "at P" counts from the start
// through P; "from P to Q" counts after P through Q. A condition is
// FROM->TO (calls on that arc), allocated ENTITY or freed ENTITY (objects
// of its classes), an operator (>=, >, =, <=, <) and a whole number.
type Feature struct {
	Name       string
	From, To   Point // From is the start for "at"
	Conditions []Condition
	line       int
}

// Point is a moment of a run.
type Point struct {
	Kind     string  // "start", "end", "%" or "call"
	Percent  float64 // for "%"
	Arc      [2]string
	Ordinal  int64 // for "call": the K-th call
	wordText string
}

// Condition is a bound on a count: the calls on an arc (What "calls") or
// the objects an entity allocated or freed.
type Condition struct {
	What   string // "calls", "allocated" or "freed"
	Arc    [2]string
	Entity string
	Op     string
	N      int64
}

// Features are a notebook's features, in order.
type Features struct {
	Name string
	List []Feature
}

// ParseFeatures reads features from text; name is used in errors, which
// name the line and what was expected.
func ParseFeatures(name, text string) (*Features, error) {
	fs := &Features{Name: name}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, err := parseFeature(line)
		if err != nil {
			return nil, analysis.LineError(name, i+1, "%v", err)
		}
		f.line = i + 1
		fs.List = append(fs.List, f)
	}
	if len(fs.List) == 0 {
		return nil, fmt.Errorf("%s: no features: expected lines `NAME at POINT: CONDITION, …`, such as `F-1 at end: UI->Core >= 10`", name)
	}
	return fs, nil
}

// parseFeature reads one line.
func parseFeature(line string) (Feature, error) {
	head, conds, ok := strings.Cut(line, ":")
	if !ok {
		return Feature{}, fmt.Errorf("expected `NAME at POINT: CONDITION, …` (a colon before the conditions)")
	}
	w := strings.Fields(head)
	if len(w) < 3 {
		return Feature{}, fmt.Errorf("expected a name and `at POINT` or `from POINT to POINT` before the colon, found %q", head)
	}
	f := Feature{Name: w[0], From: Point{Kind: "start"}}
	var err error
	switch w[1] {
	case "at":
		f.To, err = parsePoint(w[2:])
	case "from":
		i := slices.Index(w, "to")
		if i < 0 {
			return Feature{}, fmt.Errorf("from POINT needs `to POINT` after it")
		}
		if f.From, err = parsePoint(w[2:i]); err == nil {
			f.To, err = parsePoint(w[i+1:])
		}
	default:
		return Feature{}, fmt.Errorf("expected at or from after the name %s, found %q", w[0], w[1])
	}
	if err != nil {
		return Feature{}, err
	}
	for _, c := range strings.Split(conds, ",") {
		cond, err := parseCondition(strings.Fields(c))
		if err != nil {
			return Feature{}, err
		}
		f.Conditions = append(f.Conditions, cond)
	}
	return f, nil
}

// parsePoint reads start, end, N% or call K FROM->TO.
func parsePoint(w []string) (Point, error) {
	p := Point{wordText: strings.Join(w, " ")}
	switch {
	case len(w) == 1 && (w[0] == "start" || w[0] == "end"):
		p.Kind = w[0]
		return p, nil
	case len(w) == 1 && strings.HasSuffix(w[0], "%"):
		x, err := strconv.ParseFloat(strings.TrimSuffix(w[0], "%"), 64)
		if err != nil || !(x >= 0 && x <= 100) {
			return Point{}, fmt.Errorf("%s: write a share of the run from 0%% to 100%%", w[0])
		}
		p.Kind, p.Percent = "%", x
		return p, nil
	case len(w) == 3 && w[0] == "call":
		k, err := strconv.ParseInt(w[1], 10, 64)
		arc, ok := parseArc(w[2])
		if err != nil || k < 1 || !ok {
			return Point{}, fmt.Errorf("call %s %s: write call K FROM->TO, K a whole number from 1", w[1], w[2])
		}
		p.Kind, p.Ordinal, p.Arc = "call", k, arc
		return p, nil
	}
	return Point{}, fmt.Errorf("%q is not a point: write start, end, N%% or call K FROM->TO", strings.Join(w, " "))
}

func parseArc(w string) ([2]string, bool) {
	from, to, ok := strings.Cut(w, "->")
	return [2]string{from, to}, ok && from != "" && to != ""
}

// operators are the comparisons a condition may use, longest first.
var operators = []string{">=", "<=", ">", "<", "="}

// parseCondition reads FROM->TO OP N, allocated ENTITY OP N or freed
// ENTITY OP N.
func parseCondition(w []string) (Condition, error) {
	var c Condition
	switch {
	case len(w) == 3:
		arc, ok := parseArc(w[0])
		if !ok {
			return Condition{}, fmt.Errorf("%q is not a condition: write FROM->TO OP N, allocated ENTITY OP N or freed ENTITY OP N", strings.Join(w, " "))
		}
		c.What, c.Arc = "calls", arc
	case len(w) == 4 && (w[0] == "allocated" || w[0] == "freed"):
		c.What, c.Entity = w[0], w[1]
	default:
		return Condition{}, fmt.Errorf("%q is not a condition: write FROM->TO OP N, allocated ENTITY OP N or freed ENTITY OP N", strings.Join(w, " "))
	}
	op, num := w[len(w)-2], w[len(w)-1]
	if !slices.Contains(operators, op) {
		return Condition{}, fmt.Errorf("%q is not a comparison: write one of %s", op, strings.Join(operators, " "))
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(num, ",", ""), 10, 64)
	if err != nil || n < 0 {
		return Condition{}, fmt.Errorf("%q is not a count: write a whole number", num)
	}
	c.Op, c.N = op, n
	return c, nil
}

func (c Condition) String() string {
	return fmt.Sprintf("%s %s %d", c.subject(), c.Op, c.N)
}

// subject names what a condition counts: "UI→Core", "JDK allocated".
func (c Condition) subject() string {
	if c.What == "calls" {
		return c.Arc[0] + "→" + c.Arc[1]
	}
	return c.Entity + " " + c.What
}

// holds reports whether n meets the condition.
func (c Condition) holds(n int64) bool {
	switch c.Op {
	case ">=":
		return n >= c.N
	case ">":
		return n > c.N
	case "<=":
		return n <= c.N
	case "<":
		return n < c.N
	}
	return n == c.N
}

// lowerBound reports whether the condition asks for at least some calls
// or objects.
func (c Condition) lowerBound() bool {
	return c.Op == ">=" && c.N > 0 || c.Op == ">"
}

// Check returns an error naming the first entity of fs that em does not
// have.
func (fs *Features) Check(em *EntityMap) error {
	for _, f := range fs.List {
		var names []string
		for _, p := range []Point{f.From, f.To} {
			if p.Kind == "call" {
				names = append(names, p.Arc[:]...)
			}
		}
		for _, c := range f.Conditions {
			names = append(names, c.Arc[:]...)
			names = append(names, c.Entity)
		}
		for _, n := range names {
			if n != "" && !slices.Contains(em.Names, n) {
				return fmt.Errorf("%s: line %d: feature %s names the entity %s, which the mapping has not (it has %s)",
					fs.Name, f.line, f.Name, n, strings.Join(em.Names, ", "))
			}
		}
	}
	return nil
}

func (f Feature) String() string {
	var conds []string
	for _, c := range f.Conditions {
		conds = append(conds, c.String())
	}
	where := "at " + f.To.wordText
	if f.From.Kind != "start" || f.From.wordText != "" {
		where = "from " + f.From.wordText + " to " + f.To.wordText
	}
	return fmt.Sprintf("%s %s: %s", f.Name, where, strings.Join(conds, ", "))
}
