package analysis

import (
	"cmp"
	"strings"
	"sync"
	"unicode"
)

// Lang selects the name splitter for a profile's frame names.
type Lang uint8

const (
	LangAuto   Lang = iota // guess per name (see Guess)
	LangGo                 // github.com/google/pprof/profile.(*Profile).Write
	LangJVM                // org.apache.axis.utils.ClassUtils.forName
	LangCpp                // ns::Class<T>::method (also Rust)
	LangPython             // func (pkg/mod.py:12)
	LangJS                 // fn url:line:col
)

// String returns the language's short name.
func (l Lang) String() string {
	switch l {
	case LangGo:
		return "go"
	case LangJVM:
		return "jvm"
	case LangCpp:
		return "cpp"
	case LangPython:
		return "python"
	case LangJS:
		return "js"
	}
	return "auto"
}

// Split cuts a frame's full name into name elements (DESIGN.md §2), with
// the rules of the language its shape names, else of lang (see Guess). The
// elements, concatenated, give the displayed full name; the first g of them,
// concatenated, give the displayed compacted name at level g. So every element
// after the first carries its leading separator (".Muscle", "/profile").
// Level 1 is always a meaningful top unit: the package, module, crate,
// library or namespace that a reader of the language means. Split never
// returns an empty slice, nor an empty element for a non-empty name.
//
// The displayed name equals the name as given, except where the profiled
// form does not start with its top unit: Python and JavaScript frames named
// after a file ("decode (json/decoder.py:337)" shows as
// "json.decoder.decode:337", "render https://x.org/app.js:3:9" as
// "https://x.org/app.js render:3:9"), C++ names with a return type
// ("bool std::f<char>(int)" shows as "std::f<char>(int) -> bool") and
// Rust inherent methods ("<term::Terminal<T>>::new" shows as
// "term::Terminal<T>::new").
//
// A name led by its module ("rg`std::fs::read" of DTrace,
// "System.Private.CoreLib!System.String.Concat" of .NET,
// "libc-2.31.so.epoll_wait" of async-profiler) has the module as its first
// element, and the rest split by its own language (names_module.go).
//
// Split sees the name alone. A profile's frames are split with what the
// profile says beside the names, their files, libraries and project
// (names_frame.go); NewNames does that.
//
// The rules per language are in names_go.go, names_jvm.go, names_cpp.go,
// names_py.go, names_javascript.go, names_dotnet.go and names_native.go.
func Split(name string, lang Lang) []string {
	s := splitter{lang: lang}
	return s.name(name)
}

// frameLang chooses the splitter of one frame name: the language the name's
// shape names (Guess), else the profile's. A profile mixes languages: a JVM
// profile has HotSpot's C++ frames, a Go one cgo frames, a C++ one Java
// frames of a JIT; each frame is split by its own rules.
func frameLang(name string, lang Lang) Lang {
	if g := guessShape(name); g != LangAuto || lang != LangAuto {
		return cmp.Or(g, lang)
	}
	return guessDotted(name)
}

// splitLang splits a name with the splitter of lang.
func splitLang(name string, lang Lang) []string {
	switch lang {
	case LangGo:
		return splitGo(name)
	case LangJVM:
		return splitJVM(name)
	case LangCpp:
		return splitCpp(name)
	case LangPython:
		return splitPython(name, "")
	case LangJS:
		return splitJS(name, "")
	}
	return splitDotted(name)
}

// Display returns the displayed full name of a frame name: the
// concatenation of its elements.
func Display(name string, lang Lang) string {
	return strings.Join(Split(name, lang), "")
}

// Guess chooses a splitter for one name, for profiles whose language is
// unknown (LangAuto). It looks at the name's shape only:
//   - "fn (path.py:12)" is Python; "fn url:line:col" is JavaScript;
//   - "::" is C++ or Rust;
//   - "file:line - fn", as Pyroscope's Python, Ruby and Rust agents name
//     frames, is split as Python is;
//   - a JVM descriptor ("Lorg/x/Foo;.bar") is JVM;
//   - an import path ("a/b.F") or a "(*T)" receiver is Go, unless the path
//     is a JVM class path ("java/lang/Thread.run", "org/x/Foo.bar",
//     "kafka/server/KafkaApis.handle", as JFR-derived profiles write them:
//     a Java or domain root, or a class name after the last "/");
//   - a reverse domain name ("org.apache.x.Y.f", "com.google...") or an
//     inner class ("java.util.HashMap$TreeNode.find") is JVM;
//   - anything else is split at dots, which is what the Go and JVM splitters
//     do for names like "lib2.Muscle.contract()" or "runtime.mallocgc".
func Guess(name string) Lang {
	if g := guessShape(name); g != LangAuto {
		return g
	}
	return guessDotted(name)
}

// guessShape is Guess by the shapes that no other language has: the
// locations, descriptors, "::", receivers and slash paths.
func guessShape(name string) Lang {
	switch {
	case isPythonLoc(name) || isAgentLoc(name):
		return LangPython
	case isJSLoc(name) || agentScript(name) != "":
		return LangJS
	case isDescriptor(name):
		return LangJVM // Lorg/mozilla/javascript/ScriptableObject;.createSlot
	case strings.Contains(name, "::"):
		return LangCpp
	case strings.Contains(name, ".(*"):
		return LangGo
	}
	limit := len(name)
	if i := strings.IndexAny(name, "[( "); i >= 0 {
		limit = i
	}
	if slash := strings.LastIndexByte(name[:limit], '/'); slash > 0 && name[0] != '/' && name[0] != '.' &&
		strings.IndexByte(name[slash:limit], '.') > 0 && !strings.Contains(name[:limit], "://") {
		if strings.Contains(name, ";.") || strings.Contains(name, "$$Lambda") || slashedClass(name[:limit]) || isUpper(name[slash+1]) {
			return LangJVM // org/x/Foo.bar, kafka/server/KafkaApis.handle
		}
		return LangGo
	}
	return LangAuto
}

// guessDotted is Guess by the weaker signs of dotted JVM names: an inner
// class "$", a reverse domain root. They decide only where the profile's
// language does not.
func guessDotted(name string) Lang {
	name = name[:symbolTail(name)] // "ru.isra.0" is a C clone, no JVM name
	limit := len(name)
	if i := strings.IndexAny(name, "[( "); i >= 0 {
		limit = i
	}
	dot := strings.IndexByte(name, '.')
	if dot > 0 && strings.Contains(name[:limit], "$") {
		return LangJVM
	}
	if dot > 0 && isTLD(name[:dot]) && strings.Count(name, ".") >= 2 {
		return LangJVM
	}
	return LangAuto
}

// slashedClass reports whether a "/"-separated name is a JVM class path:
// a reverse domain root ("com/google/...") or a JVM package root
// ("java/lang/...", "scala/..."), and a segment naming a class.
func slashedClass(head string) bool {
	segs := strings.Split(head, "/")
	if !isTLD(segs[0]) && !jvmRoots[segs[0]] {
		return false
	}
	for _, s := range segs[1:] {
		if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
			return true
		}
	}
	return false
}

// jvmRoots are the first package segments of the Java platform and of the
// common JVM languages' runtimes.
var jvmRoots = map[string]bool{
	"java": true, "javax": true, "jdk": true, "sun": true, "kotlin": true,
	"kotlinx": true, "scala": true, "clojure": true, "groovy": true,
}

// isUpper reports whether c is an ASCII upper-case letter.
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// isDescriptor reports whether name starts with a JVM class descriptor,
// "Lpkg/Class;", as perf-map-agent writes JIT-compiled methods.
func isDescriptor(name string) bool {
	semi := strings.IndexByte(name, ';')
	if len(name) < 4 || name[0] != 'L' || semi < 0 {
		return false
	}
	head, rest := name[1:semi], name[semi+1:]
	// A class of the default package has no "/": it is a descriptor only
	// with a method after it ("LCounter;::countTo").
	method := strings.HasPrefix(rest, "::") || strings.HasPrefix(rest, ".")
	return head != "" && (strings.Contains(head, "/") || method) && strings.IndexFunc(head, func(r rune) bool {
		return r != '/' && r != '$' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) < 0
}

// splitDotted splits at every "." outside brackets: the shared rule of
// dotted names whose language is unknown. A C symbol's version or clone
// suffix stays with the last element (names_native.go).
func splitDotted(name string) []string {
	end := symbolTail(name)
	out := cutAt(name, 0, end, func(s string, i int) int {
		if s[i] == '.' && i > 0 {
			return 1
		}
		return 0
	}, nil)
	out[len(out)-1] += name[end:]
	return out
}

// cutAt appends to out the elements of name[from:to], cutting before every
// position i (at bracket depth 0, i > from) where sep(name, i) > 0. The cut
// keeps the separator at the start of the next element. Brackets are (), [],
// {} and <>; a ">" in "->" does not close one.
func cutAt(name string, from, to int, sep func(s string, i int) int, out []string) []string {
	depth := 0
	start := from
	for i := from; i < to; i++ {
		switch c := name[i]; c {
		case '(', '[', '{', '<':
			depth++
			continue
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
			continue
		case '>':
			if depth > 0 && (i == 0 || name[i-1] != '-') {
				depth--
			}
			continue
		}
		if depth == 0 && i > start {
			if n := sep(name, i); n > 0 {
				out = append(out, name[start:i])
				start = i
				i += n - 1
			}
		}
	}
	if start < to {
		out = append(out, name[start:to])
	}
	return out
}

// Names holds the interned name elements of every frame of a profile.
type Names struct {
	Strings []string  // distinct elements
	Elems   [][]int32 // per frame id: element ids, in order
	Lang    Lang      // the profile's language, the one Split was given
	// Common is the directory that every frame named after a path or URL
	// lies in ("file:///Users/x/proj/"), which the views leave out of names
	// (Short); "" when the paths share none worth leaving out.
	Common string

	frames []Frame          // the profile's frames, for Show
	once   sync.Once        // makes byName
	byName map[string]int32 // frame name → the first frame of that name
}

// NewNames splits every frame name of p once.
func NewNames(p *Profile) *Names { return newNames(p, &interrupt{}) }

// newNames is NewNames that stops early, incomplete, when stop is done.
func newNames(p *Profile, stop *interrupt) *Names {
	n := &Names{Elems: make([][]int32, len(p.Frames)), Lang: p.Lang, frames: p.Frames}
	s := splitter{lang: p.Lang, g: p.Granularity}
	s.py, s.js = projects(p.Frames)
	ids := make(map[string]int32)
	for f, fr := range p.Frames {
		if stop.done() {
			break
		}
		parts := s.frame(fr)
		e := make([]int32, len(parts))
		for i, str := range parts {
			id, ok := ids[str]
			if !ok {
				id = int32(len(n.Strings))
				n.Strings = append(n.Strings, str)
				ids[str] = id
			}
			e[i] = id
		}
		n.Elems[f] = e
	}
	n.Common = sharedDir(n)
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

// isDigits reports whether s is a non-empty run of decimal digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
