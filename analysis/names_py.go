package analysis

import (
	"strings"
)

// Python names. A reader of Python names code by its module, the dotted
// name an import statement uses ("jax._src.core"), and the module's first
// element is the top-level package ("jax"). The import system maps a file
// to its module through the sys.path entry that holds it (the Python
// Language Reference, §5 "The import system", and PEP 420 for packages
// whose directories have no __init__.py). A profile records files, not
// sys.path, so the entry is recognised from the path:
//
//   - an installed distribution lies under site-packages or dist-packages
//     (Debian's name for it), whatever holds that directory: a venv, conda,
//     pyenv, the user site (~/.local/lib/pythonX.Y/site-packages);
//     ".../site-packages/jax/_src/core.py" is "jax._src.core";
//   - the standard library lies in lib/pythonX.Y (lib64 on some systems,
//     Lib on Windows, lib-python/N in PyPy): ".../lib/python3.11/json/
//     decoder.py" is "json.decoder"; frozen modules are named by their
//     pseudo-file, "<frozen importlib._bootstrap>" is "importlib._bootstrap";
//   - a relative path is relative to the directory the program ran in,
//     itself on sys.path: "json/decoder.py" is "json.decoder", "a.py" "a";
//   - any other file is the application's: its module is its path relative
//     to the project, the directory that holds all of the profile's
//     application files, moved up past every directory that the profile
//     shows to be a regular package (one whose __init__.py ran), since a
//     package's parent is the sys.path entry; a "src" directory is the
//     entry of the packages below it (the src layout of the Python Packaging
//     User Guide, "src layout vs flat layout"): in the project /home/u/proj,
//     "/home/u/proj/sim/src/sim/sensor.py" is "sim.sensor" and
//     "/home/u/proj/main.py" is "main"; alone, a file is a module of its own
//     directory.
//
// A package's __init__.py is the package itself ("jax/__init__.py" is
// "jax"). The display is the qualified name of PEP 3155, module then
// function, with the line: "jax._src.core.Tracer.__getattr__:812", with
// elements
//
//   - the module, one element per dotted part ("jax" · "._src" · ".core");
//   - the function, cut at "." (".Tracer" · ".__getattr__");
//   - the line (":812").
//
// The forms read are py-spy's and pyinstrument's "func (file.py:12)",
// Pyroscope's agent "file.py:12 - func", and a bare function whose frame's
// file is a pseudo-file ("<frozen importlib._bootstrap>", "<built-in>",
// "<string>"); a pseudo-file other than a frozen module is a module of its
// own ("<built-in>"). Names without a location are split at dots
// ("pkg.mod.func").
//
//	decode (/usr/lib/python3.11/json/decoder.py:337) → json · .decoder · .decode · :337

// pyLoc is a Python frame's location: its file, function and line (":337",
// "" when unknown).
type pyLoc struct{ file, fn, line string }

// pythonLoc parses the py-spy form "func (file.py:12)" and the agent form
// "file.py:12 - func".
func pythonLoc(name string) (pyLoc, bool) {
	if file, ok := agentFile(name); ok && isPyFile(file) {
		rest := name[len(file):] // ":12 - func"
		dash := strings.Index(rest, " - ")
		return pyLoc{file: file, fn: rest[dash+3:], line: rest[:dash]}, true
	}
	if !isPythonLoc(name) {
		return pyLoc{}, false
	}
	open := strings.LastIndex(name, " (")
	loc := name[open+2 : len(name)-1]
	l := pyLoc{file: loc, fn: name[:open]}
	if colon := strings.LastIndexByte(loc, ':'); colon >= 0 {
		l.file, l.line = loc[:colon], loc[colon:]
	}
	return l, true
}

// splitPython splits a Python frame name; root is the project of the
// application's files ("" when unknown: a file is then a module of its
// own directory).
func splitPython(name, root string) []string {
	l, ok := pythonLoc(name)
	if !ok {
		if file, ok := agentFile(name); ok {
			return append(pathElems(file, pyRoot(file), nil), name[len(file):])
		}
		return splitDotted(name)
	}
	return pyElems(pyModule(l.file, root, nil), l.fn, l.line)
}

// pyElems appends to a module's elements those of its function and line.
func pyElems(out []string, fn, line string) []string {
	if fn != "" {
		out = cutAt("."+fn, 0, len(fn)+1, dotSep, out)
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// splitPseudo splits a function whose file is a Python pseudo-file
// ("<frozen importlib._bootstrap>", "<built-in>"); ok is false for other
// files.
func splitPseudo(fr Frame) ([]string, bool) {
	f := fr.File
	if len(f) < 3 || f[0] != '<' || f[len(f)-1] != '>' || strings.ContainsAny(fr.Name, " ()") {
		return nil, false
	}
	var out []string
	if m, ok := strings.CutPrefix(f[1:len(f)-1], "frozen "); ok && m != "" {
		out = cutAt(m, 0, len(m), dotSep, nil)
	} else {
		out = []string{f}
	}
	line := ""
	if fr.Line > 0 {
		line = ":" + itoa(fr.Line)
	}
	return pyElems(out, fr.Name, line), true
}

// itoa formats a positive number.
func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for n > 0 || i == len(b) {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// isPythonLoc reports whether name has the form "func (file.py:N)".
func isPythonLoc(name string) bool {
	open := strings.LastIndex(name, " (")
	if open <= 0 || !strings.HasSuffix(name, ")") {
		return false
	}
	loc := name[open+2 : len(name)-1]
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		if !isDigits(loc[i+1:]) {
			return false
		}
		loc = loc[:i]
	}
	return loc != "" && !strings.ContainsAny(loc, " ()") && isPyFile(loc)
}

// isPyFile reports whether a file is a Python source or Cython file.
func isPyFile(f string) bool {
	return strings.HasSuffix(f, ".py") || strings.HasSuffix(f, ".pyx") || strings.HasSuffix(f, ".pyw")
}

// isAgentLoc reports whether name has the form "file:line - fn".
func isAgentLoc(name string) bool {
	_, ok := agentFile(name)
	return ok
}

// agentFile returns the file of a "file:line - fn" name.
func agentFile(name string) (string, bool) {
	i := strings.Index(name, " - ")
	if i <= 0 {
		return "", false
	}
	colon := strings.LastIndexByte(name[:i], ':')
	if colon <= 0 || !isDigits(strings.TrimPrefix(name[colon+1:i], "-")) || strings.ContainsRune(name[:colon], ' ') {
		return "", false
	}
	return name[:colon], true
}

// pyPackageDirs are the directories whose contents are named from them on:
// the sys.path entries of installed distributions.
var pyPackageDirs = []string{"/site-packages/", "/dist-packages/"}

// pyModule appends the elements of the module of a Python file (see the
// file comment); root is the project directory, with its trailing "/".
func pyModule(file, root string, out []string) []string {
	f := strings.ReplaceAll(file, `\`, "/")
	rel := ""
	switch i, j := pyEntry(f); {
	case i >= 0:
		rel = f[j:]
	case !isAbsPath(f):
		rel = strings.TrimPrefix(f, "./")
	case root != "" && strings.HasPrefix(f, root):
		rel = f[len(root):]
		if i := strings.LastIndex("/"+rel, "/src/"); i >= 0 {
			rel = rel[i+len("src/"):]
		}
	default:
		rel = f[strings.LastIndexByte(f, '/')+1:]
	}
	segs := strings.Split(rel, "/")
	last := len(segs) - 1
	segs[last] = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(segs[last], ".py"), ".pyx"), ".pyw")
	if segs[last] == "__init__" && last > 0 {
		segs = segs[:last]
	}
	n := len(out)
	for _, s := range segs {
		if s == "" || s == "." {
			continue
		}
		if len(out) > n {
			s = "." + s
		}
		out = append(out, s)
	}
	if len(out) == n {
		out = append(out, file)
	}
	return out
}

// pyEntry finds the sys.path entry of an installed or standard library file:
// it returns where the entry's directory name starts and where the module
// path after it starts; -1, -1 when the file lies in neither.
func pyEntry(f string) (int, int) {
	for _, d := range pyPackageDirs {
		if i := strings.LastIndex(f, d); i >= 0 {
			return i, i + len(d)
		}
	}
	for _, d := range []string{"/lib/python", "/lib64/python", "/lib-python/"} {
		if i := strings.LastIndex(f, d); i >= 0 {
			j := i + len(d)
			for j < len(f) && (isDigit(f[j]) || f[j] == '.') {
				j++
			}
			if j < len(f) && f[j] == '/' && j > i+len(d) {
				return i, j + 1
			}
		}
	}
	if i := strings.LastIndex(f, "/Lib/"); i >= 0 {
		return i, i + len("/Lib/")
	}
	return -1, -1
}

// isAbsPath reports whether a path is absolute: "/…", "C:/…" or a URL.
func isAbsPath(f string) bool {
	return strings.HasPrefix(f, "/") || len(f) > 2 && f[1] == ':' && f[2] == '/' || strings.Contains(f, "://")
}

// isPyApp reports whether a Python file belongs to the application: an
// absolute path outside the installed distributions and the standard
// library.
func isPyApp(file string) bool {
	f := strings.ReplaceAll(file, `\`, "/")
	i, _ := pyEntry(f)
	return i < 0 && isAbsPath(f)
}

// pyRoot returns the length of the top unit of a file path as a path, for
// Pyroscope agent names of languages without a splitter of their own.
func pyRoot(file string) int {
	if !strings.HasPrefix(file, "/") && !strings.Contains(file, ":") {
		return segEnd(file, 0)
	}
	return dirEnd(file)
}

// segEnd returns the end of the path element starting at from: the index of
// the next "/" or the length of the path when the element is its last.
func segEnd(path string, from int) int {
	if i := strings.IndexByte(path[from:], '/'); i >= 0 {
		return from + i
	}
	return len(path)
}

// dirEnd returns the index of the last "/" of path (its directory), or the
// path's length when it has no directory.
func dirEnd(path string) int {
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		return i
	}
	return len(path)
}

// pathElems appends path[:root] and then one element per "/"-led element of
// the rest.
func pathElems(path string, root int, out []string) []string {
	if root == 0 {
		root = len(path)
	}
	out = append(out, path[:root])
	start := root
	for i := root + 1; i < len(path); i++ {
		if path[i] == '/' {
			out = append(out, path[start:i])
			start = i
		}
	}
	if start < len(path) {
		out = append(out, path[start:])
	}
	return out
}
