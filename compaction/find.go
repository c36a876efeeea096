package compaction

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Finding the compacted nodes a TARGET names. A TARGET is, tried in this
// order, the first rule that names any node winning:
//
//  1. all: every node (Found.All);
//  2. a handle, or a unique prefix of one (Resolve);
//  3. a path of displayed names from a root, "lib1 > lib2" (a target with
//     " > " is only a path); a single name is a path of length one: a root;
//  4. a displayed name: every node of that name;
//  5. a suffix of displayed names that starts at a word boundary (after a
//     character other than a letter, digit, "_" or "$"), also when the
//     names' trailing line and column (":4:35") and address (" @0x4f7")
//     are left out: "prepare" for "wrappers.js prepare:4:35",
//     "(*Profile).Write" for "github.com/google/pprof/profile.(*Profile).Write".
//     Every node of the one name that ends so.
//
// A regular expression (FindRe) names every node of the one name it
// matches. Displayed names are compared as the views print them too, with
// the profile's common directory left out (analysis.Names.Short). When a
// rule names nodes of several names, the error lists them, the heaviest
// first, at most ten, each with a handle (TargetError).

// Found is what a TARGET names: nodes of one name, or all.
type Found struct {
	All   bool
	Nodes []int32 // in pre-order
	Name  string  // their displayed name
}

// TargetError says that a TARGET names nothing, or nodes of several names
// (Names) or several nodes where one is needed (Nodes).
type TargetError struct {
	Target string
	Names  []Candidate // the names it matched, heaviest first
	Nodes  []Candidate // the nodes it matched, heaviest first, when one was needed
	Hint   string      // what to do, when it matched nothing
	Re     bool        // the target is a regular expression (re=REGEX)
}

// Candidate is one name or node a TARGET matched, with the handle of its
// heaviest node.
type Candidate struct {
	Name   string
	Handle string
}

// maxCandidates is how many candidates an error lists.
const maxCandidates = 10

func (e *TargetError) Error() string {
	switch {
	case len(e.Names) > 0:
		return fmt.Sprintf("%q matches %d names: %s; give more of the name, a handle, or re=REGEX", e.Target, len(e.Names), listCandidates(e.Names))
	case len(e.Nodes) > 0:
		return fmt.Sprintf("%q names %d compacted nodes: %s; give a handle or a path", e.Target, len(e.Nodes), listCandidates(e.Nodes))
	case e.Re:
		return fmt.Sprintf("no displayed name matches %s (%s)", e.Target, e.Hint)
	}
	return fmt.Sprintf("no compacted node has handle or name %q, nor a name ending with it (%s)", e.Target, e.Hint)
}

// listCandidates writes candidates as `"name" (handle)`, at most
// maxCandidates of them.
func listCandidates(cs []Candidate) string {
	var parts []string
	for i, c := range cs {
		if i == maxCandidates {
			parts = append(parts, fmt.Sprintf("and %d more", len(cs)-maxCandidates))
			break
		}
		parts = append(parts, fmt.Sprintf("%q (%s)", c.Name, c.Handle))
	}
	return strings.Join(parts, ", ")
}

// Find returns the nodes a TARGET names (see the rules above).
func (v *View) Find(target string) (Found, error) {
	target = strings.TrimSpace(target)
	switch {
	case target == "":
		return Found{}, fmt.Errorf("empty target: give a handle, a name, a path like \"lib1 > lib2\", or all")
	case target == "all":
		return Found{All: true}, nil
	}
	if i, ok := v.byHandle(target); ok {
		return v.found(i), nil
	}
	if i, ok := v.byPath(target); ok {
		return v.found(i), nil
	}
	if strings.Contains(target, " > ") {
		_, err := v.resolvePath(target) // says where the path leaves the view
		return Found{}, err
	}
	if f, ok := v.byName(target); ok {
		return f, nil
	}
	f, err := v.matching(target, func(name string) bool { return endsWith(name, target) })
	if err != nil && len(err.Names) == 0 {
		err.Hint = "run view to list the handles"
	}
	if err != nil {
		return f, err
	}
	return f, nil
}

// FindRe returns the nodes of the one name that re matches.
func (v *View) FindRe(re *regexp.Regexp) (Found, error) {
	f, err := v.matching("re="+re.String(), re.MatchString)
	if err != nil {
		err.Re, err.Hint = true, "run view to list the names"
		return f, err
	}
	return f, nil
}

// One returns the one node f names; an error listing them when it names
// several (nodes of one name at several places).
func (v *View) One(target string, f Found) (int32, error) {
	if f.All || len(f.Nodes) == 1 {
		if f.All {
			return -1, nil
		}
		return f.Nodes[0], nil
	}
	var cs []Candidate
	for _, i := range v.heaviest(f.Nodes) {
		cs = append(cs, Candidate{v.Path(i), v.Handle(i)})
	}
	return 0, &TargetError{Target: target, Nodes: cs}
}

// found is the Found of node i: i alone, named by its name.
func (v *View) found(i int32) Found { return Found{Nodes: []int32{i}, Name: v.Nodes[i].Name} }

// byPath resolves a path of names from a root, as the views print them or
// without the common directory.
func (v *View) byPath(target string) (int32, bool) {
	parts := strings.Split(target, " > ")
	level := v.Roots
	cur := int32(-1)
	for _, p := range parts {
		p = strings.TrimSpace(p)
		i := slices.IndexFunc(level, func(c int32) bool { return v.shows(c, p) })
		if i < 0 {
			return 0, false
		}
		cur = level[i]
		level = v.Nodes[cur].Children
	}
	return cur, true
}

// byName returns every node displayed as name.
func (v *View) byName(name string) (Found, bool) {
	f := Found{Name: name}
	for _, i := range v.Preorder() {
		if v.shows(i, name) {
			f.Nodes, f.Name = append(f.Nodes, i), v.Nodes[i].Name
		}
	}
	return f, len(f.Nodes) > 0
}

// shows reports whether node i is displayed as name, in full or without
// the profile's common directory.
func (v *View) shows(i int32, name string) bool {
	n := v.Nodes[i].Name
	return n == name || v.Tree != nil && v.Tree.Names.Short(n) == name
}

// matching returns the nodes of the one name that match; a TargetError
// when no name or several do.
func (v *View) matching(target string, match func(name string) bool) (Found, *TargetError) {
	byName := map[string][]int32{}
	var names []string
	for _, i := range v.Preorder() {
		n := v.Nodes[i].Name
		if _, seen := byName[n]; !seen && !match(n) && (v.Tree == nil || !match(v.Tree.Names.Short(n))) {
			continue
		}
		if _, seen := byName[n]; !seen {
			names = append(names, n)
		}
		byName[n] = append(byName[n], i)
	}
	if len(names) == 1 {
		return Found{Nodes: byName[names[0]], Name: names[0]}, nil
	}
	err := &TargetError{Target: target}
	for _, n := range names {
		top := v.heaviest(byName[n])[0]
		err.Names = append(err.Names, Candidate{n, v.Handle(top)})
	}
	total := func(c Candidate) int64 {
		var t int64
		for _, i := range byName[c.Name] {
			t += v.Nodes[i].Total
		}
		return t
	}
	slices.SortStableFunc(err.Names, func(a, b Candidate) int { return cmp.Compare(total(b), total(a)) })
	return Found{}, err
}

// heaviest returns nodes ordered by descending total, pre-order among
// equals.
func (v *View) heaviest(nodes []int32) []int32 {
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b int32) int { return cmp.Compare(v.Nodes[b].Total, v.Nodes[a].Total) })
	return out
}

// place is a displayed name's trailing line and column, or address.
var place = regexp.MustCompile(`(:-?[0-9]+)*( @0x[0-9a-f]+)?$`)

// endsWith reports whether name, or name without its trailing line and
// address, ends with suffix at a word boundary.
func endsWith(name, suffix string) bool {
	for _, n := range []string{name, name[:place.FindStringIndex(name)[0]]} {
		if k := len(n) - len(suffix); strings.HasSuffix(n, suffix) && (k == 0 || !wordByte(n[k-1]) || !wordByte(suffix[0])) {
			return true
		}
	}
	return false
}

// wordByte reports whether c continues a word: a letter, digit, "_" or "$".
func wordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
