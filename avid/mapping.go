package avid

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/proflens/proflens/analysis"
)

// A Mapping names the entities of an architectural view (AVID, seed 001):
// each line `ENTITY class PATTERN` puts the frames whose name matches
// PATTERN into ENTITY, as the paper's mapping files do:
//
//	# comments and blank lines are ignored
//	JDK   class java.*
//	Path  class org.eclipse.core.runtime.Path
//	HTTP  package net/http.*
//	STL   namespace std::*
//	JSON  module json.*
//
// The word after the entity is for the reader: class, package, module,
// namespace, file and function all match the same way. A pattern is
// matched against a frame's displayed full name (Display: a Python or
// JavaScript frame shows its module first, "json.decoder.decode:337"); `*`
// matches any run of characters and everything else stands for itself. A
// pattern matches a name whole, or a leading part of it that ends where a
// name element ends: `org.eclipse.core.runtime.Path` takes the methods
// `org.eclipse.core.runtime.Path.segments`, not the class
// `org.eclipse.core.runtime.PathUtil`. The first line that matches wins;
// frames no line matches belong to the entity Other.
type Mapping struct {
	Name     string   // the file, or the name of an inline mapping
	Entities []string // in order of first appearance
	rules    []rule
}

// Other is the entity of the frames that no line of a mapping matches.
const Other = "(other)"

type rule struct {
	entity  int32
	line    int
	text    string // the line as written, for notes
	literal string // the pattern up to its first *: a name it matches starts with it
	re      *regexp.Regexp
}

// MaxMappingLines bounds a mapping: applying one costs the frames times
// its lines, at worst.
const MaxMappingLines = 1000

// mappingKinds are the words a mapping line may use between entity and
// pattern.
var mappingKinds = []string{"class", "package", "module", "namespace", "file", "function"}

// ParseMapping reads a mapping from text; name is used in errors, which
// name the line and what was expected.
func ParseMapping(name, text string) (*Mapping, error) {
	m := &Mapping{Name: name}
	index := map[string]int32{}
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		r, err := parseRule(f, i+1)
		if err != nil {
			return nil, analysis.LineError(name, i+1, "%v", err)
		}
		id, ok := index[f[0]]
		if !ok {
			id = int32(len(m.Entities))
			index[f[0]] = id
			m.Entities = append(m.Entities, f[0])
		}
		r.entity, r.text = id, strings.TrimSpace(line)
		if m.rules = append(m.rules, r); len(m.rules) > MaxMappingLines {
			return nil, analysis.LineError(name, i+1, "more than %d mapping lines: group frames with * patterns", MaxMappingLines)
		}
	}
	if len(m.rules) == 0 {
		return nil, fmt.Errorf("%s: no mapping lines: expected lines `ENTITY class PATTERN`, such as `JDK class java.*`", name)
	}
	return m, nil
}

// parseRule reads the words of one line: ENTITY KIND PATTERN.
func parseRule(f []string, line int) (rule, error) {
	if len(f) != 3 {
		return rule{}, fmt.Errorf("expected `ENTITY class PATTERN` (three words), found %d word%s", len(f), plural(len(f)))
	}
	if f[0] == Other {
		return rule{}, fmt.Errorf("the entity name %s is taken by the frames no line matches: choose another", Other)
	}
	if !slices.Contains(mappingKinds, f[1]) {
		return rule{}, fmt.Errorf("expected class (or %s) after the entity %s, found %q", strings.Join(mappingKinds[1:], ", "), f[0], f[1])
	}
	pat := f[2]
	if !utf8.ValidString(pat) {
		return rule{}, fmt.Errorf("the pattern %q is not UTF-8 text", pat)
	}
	expr := "^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".*") + "$"
	literal, _, _ := strings.Cut(pat, "*")
	return rule{line: line, literal: literal, re: regexp.MustCompile(expr)}, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Len returns the number of lines of m, comments and blank lines left out.
func (m *Mapping) Len() int { return len(m.rules) }

// String returns m's lines as written, one per line.
func (m *Mapping) String() string {
	var b strings.Builder
	for _, r := range m.rules {
		b.WriteString(r.text + "\n")
	}
	return b.String()
}

// EntityMap is a mapping applied to the frames of a call tree.
type EntityMap struct {
	Names  []string // the mapping's entities, then Other
	Frame  []int32  // per frame id: index into Names
	Unused []string // the lines that matched no frame, as "line N: TEXT"
}

// Other returns the index of the entity Other.
func (em *EntityMap) Other() int32 { return int32(len(em.Names) - 1) }

// Apply assigns every frame of p to an entity, splitting the frames' names
// (whatever names a tree of p shows: see Tree.WithNames). Time is the
// frames times the lines times the name elements, at worst; most lines are
// ruled out by their pattern's literal start.
func (m *Mapping) Apply(p *analysis.Profile) *EntityMap {
	names := analysis.NewNames(p)
	em := &EntityMap{Names: append(slices.Clip(m.Entities), Other), Frame: make([]int32, len(p.Frames))}
	used := make([]bool, len(m.rules))
	for f := range p.Frames {
		em.Frame[f] = em.Other()
		if r := m.match(names, int32(f)); r >= 0 {
			em.Frame[f], used[r] = m.rules[r].entity, true
		}
	}
	for i, r := range m.rules {
		if !used[i] {
			em.Unused = append(em.Unused, fmt.Sprintf("line %d: %s", r.line, r.text))
		}
	}
	return em
}

// match returns the first rule matching frame f, or -1.
func (m *Mapping) match(names *analysis.Names, f int32) int {
	full := names.Prefix(f, names.Len(f))
	for i := range m.rules {
		r := &m.rules[i]
		if !strings.HasPrefix(full, r.literal) {
			continue
		}
		for g := names.Len(f); g >= 1; g-- {
			if r.re.MatchString(names.Prefix(f, g)) {
				return i
			}
		}
	}
	return -1
}

// PackageMap is the mapping of p without lines: each top-level name
// element (a package, module, namespace, file) is an entity, in name
// order, and (other) has no frame.
func PackageMap(p *analysis.Profile) *EntityMap {
	names := analysis.NewNames(p)
	tops := make([]string, len(p.Frames))
	for f := range p.Frames {
		tops[f] = names.Prefix(int32(f), 1)
	}
	em := &EntityMap{Names: append(slices.Compact(slices.Sorted(slices.Values(tops))), Other), Frame: make([]int32, len(p.Frames))}
	for f, top := range tops {
		i, _ := slices.BinarySearch(em.Names[:len(em.Names)-1], top)
		em.Frame[f] = int32(i)
	}
	return em
}

// Names names every frame of p by its entity (EntityMap.ElementNames): the
// mapping as a granularity.
func (m *Mapping) Names(p *analysis.Profile) *analysis.Names { return m.Apply(p).ElementNames() }

// ElementNames returns the name elements of a tree whose frames are named by
// their entities: each frame has one element, its entity's name. A call
// tree with these names (Tree.WithNames) compacts every frame to its
// entity, so that compacted views, their pictures and phase vectors are by
// entity: the mapping as a granularity.
func (em *EntityMap) ElementNames() *analysis.Names {
	n := &analysis.Names{Strings: em.Names, Elems: make([][]int32, len(em.Frame))}
	for f, e := range em.Frame {
		n.Elems[f] = []int32{e}
	}
	return n
}
