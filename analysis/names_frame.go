package analysis

import (
	"strconv"
	"strings"
)

// Frames and their elements. A frame's elements come from its name, split
// by the rules of its language (Split), and from two things beside the
// name:
//
//   - the project: Python modules and JavaScript scripts of the
//     application are named relative to the directory that holds them all,
//     which only the whole profile shows (projects);
//   - the frame's file and library: a Python function whose file is a
//     pseudo-file ("<frozen importlib._bootstrap>") is named by its module
//     (names_py.go), and a native function whose name has no namespace by
//     its library (names_native.go).

// splitter splits the frame names of one profile.
type splitter struct {
	lang Lang
	g    Granularity // what the profile's frames stand for
	py   string      // the project of the Python application files, with its trailing "/"
	js   string      // the project of the JavaScript application scripts, likewise
}

// frame returns the elements of frame fr: those of its function, then, at
// Lines and Addresses, its line (unless its name carries it) and address;
// at Files, those of its file.
func (s *splitter) frame(fr Frame) []string {
	out := s.function(fr)
	switch {
	case s.g == Files:
		return fileElems(fr.Name)
	case s.g < Lines:
		return out
	}
	if fr.Line != 0 && !carriesLine(fr.Name) && !strings.HasPrefix(fr.File, "<") {
		out = append(out, ":"+strconv.FormatInt(fr.Line, 10))
	}
	if fr.Addr != 0 && s.g == Addresses {
		out = append(out, " @0x"+strconv.FormatUint(fr.Addr, 16))
	}
	return out
}

// fileElems splits a file's path at its directories: "/usr", "/lib",
// "/nat.c"; a name that is no path ("[libc.so.6]", "<unknown>") is one
// element.
func fileElems(path string) []string {
	if len(path) < 2 {
		return []string{path}
	}
	root := strings.IndexByte(path[1:], '/') + 1
	return pathElems(path, root, nil)
}

// function returns the elements of frame fr's function.
func (s *splitter) function(fr Frame) []string {
	if strings.HasPrefix(fr.File, "<") {
		if p, ok := splitPseudo(fr); ok {
			return p
		}
	}
	out := s.name(fr.Name)
	if len(out) == 1 {
		if lib := libName(fr); lib != "" && !isLibFrame(fr.Name, lib) {
			return []string{lib, "`" + out[0]}
		}
	}
	return out
}

// name returns the elements of a frame name.
func (s *splitter) name(name string) []string {
	if name == "" {
		return []string{""}
	}
	if n := modulePrefix(name); n > 0 {
		return s.moduleLed(name, n)
	}
	return s.lang1(name, frameLang(name, s.lang))
}

// moduleLed splits a name led by its module (names_module.go).
func (s *splitter) moduleLed(name string, n int) []string {
	rest := name[n+1:]
	var out []string
	if name[n] == '!' {
		out = splitDotnet(rest)
	} else {
		out = s.lang1(rest, frameLang(rest, s.lang))
	}
	out[0] = name[n:n+1] + out[0]
	return append([]string{name[:n]}, out...)
}

// lang1 splits a name with the splitter of lang.
func (s *splitter) lang1(name string, lang Lang) []string {
	switch lang {
	case LangPython:
		return splitPython(name, s.py)
	case LangJS:
		return splitJS(name, s.js)
	}
	return splitLang(name, lang)
}

// projects finds the projects of a profile's Python and JavaScript
// application files: the directory that holds them all, and for Python
// moved up past the regular packages among them (names_py.go).
func projects(frames []Frame) (py, js string) {
	var pyFiles, jsFiles pathPrefix
	inits := make(map[string]bool)
	for i := range frames {
		name := frames[i].Name
		if l, ok := pythonLoc(name); ok && isPyApp(l.file) {
			f := strings.ReplaceAll(l.file, `\`, "/")
			pyFiles.add(f)
			if strings.HasSuffix(f, "/__init__.py") {
				inits[f[:len(f)-len("__init__.py")]] = true
			}
		} else if url := agentScript(name); url != "" && isJSApp(url) {
			jsFiles.add(url)
		} else if url, _, _, ok := jsLoc(name); ok && isJSApp(url) {
			jsFiles.add(url)
		}
	}
	py = pyFiles.dir()
	for py != "" && inits[py] {
		py = py[:strings.LastIndexByte(py[:len(py)-1], '/')+1]
	}
	return py, jsFiles.dir()
}

// pathPrefix is the longest common prefix of the paths added.
type pathPrefix struct {
	prefix string
	any    bool
}

func (c *pathPrefix) add(path string) {
	if !c.any {
		c.prefix, c.any = path, true
		return
	}
	if !strings.HasPrefix(path, c.prefix) {
		c.prefix = c.prefix[:commonLen(c.prefix, path)]
	}
}

// dir returns the directory, with its trailing "/", that holds every path
// added; "" when none was.
func (c *pathPrefix) dir() string {
	return c.prefix[:strings.LastIndexByte(c.prefix, '/')+1]
}
