package analysis

import "strings"

// Lang selects the name splitter for a profile's frame names.
type Lang uint8

const (
	LangAuto   Lang = iota // guess per name
	LangGo                 // github.com/google/pprof/profile.(*Profile).Write
	LangJVM                // org.apache.axis.utils.ClassUtils.forName
	LangCpp                // ns::Class<T>::method (also Rust)
	LangPython             // func (pkg/mod.py:12)
	LangJS                 // fn url:line:col
)

// Split cuts a frame's full name into name elements (DESIGN.md §2). The
// elements, concatenated, give the displayed full name; the first g of them,
// concatenated, give the displayed compacted name at level g. So every element
// after the first carries its leading separator (".Muscle", "/profile").
// Level 1 is always a meaningful top unit (a package, module or file).
//
// TODO(names): language-aware splitters; this is the plain dotted rule.
func Split(name string, lang Lang) []string {
	if name == "" {
		return []string{""}
	}
	var out []string
	start := 0
	for i := 1; i < len(name); i++ {
		if name[i] == '.' {
			out = append(out, name[start:i])
			start = i
		}
	}
	return append(out, name[start:])
}

// Names holds the interned name elements of every frame of a profile.
type Names struct {
	Strings []string  // distinct elements
	Elems   [][]int32 // per frame id: element ids, in order
}

// NewNames splits every frame name of p once.
func NewNames(p *Profile) *Names {
	n := &Names{Elems: make([][]int32, len(p.Frames))}
	ids := make(map[string]int32)
	for f, fr := range p.Frames {
		parts := Split(fr.Name, p.Lang)
		e := make([]int32, len(parts))
		for i, s := range parts {
			id, ok := ids[s]
			if !ok {
				id = int32(len(n.Strings))
				n.Strings = append(n.Strings, s)
				ids[s] = id
			}
			e[i] = id
		}
		n.Elems[f] = e
	}
	return n
}

// Len returns the number of name elements of frame f.
func (n *Names) Len(f int32) int { return len(n.Elems[f]) }

// Prefix returns the displayed compacted name of frame f at level g; a level
// beyond the name's length means the full name.
func (n *Names) Prefix(f int32, g int) string {
	e := n.Elems[f]
	if g > len(e) {
		g = len(e)
	}
	var b strings.Builder
	for _, id := range e[:g] {
		b.WriteString(n.Strings[id])
	}
	return b.String()
}
