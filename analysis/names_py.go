package analysis

import (
	"strings"
)

// Python names: "func (path/to/mod.py:12)", the py-spy form. The display
// puts the file first and drops the brackets: "path/to/mod.py func:12", with
// elements
//
//   - the top unit: the top package under site-packages, dist-packages or
//     lib/pythonX.Y ("/usr/lib/python3.11/json"), the first directory of a
//     relative path ("json" of "json/decoder.py"), the project of any other
//     absolute path (the path before its first src, lib, dist, build, out or
//     app directory), else its directory;
//   - one element per further path element ("/decoder.py");
//   - the function, cut at "." (" Class" · ".method");
//   - the line (":12").
//
// Names without a location are split at dots ("pkg.mod.func").
//
// Pyroscope's agents write "file:line - fn" (Python, Ruby and Rust alike:
// "flask/app.py:-1 - run", "alloc.rs:241 - alloc::alloc::alloc"): the file's
// elements as above, then the rest whole (":-1 - run").
//
//	decode (json/decoder.py:337) → json · /decoder.py · " decode" · :337
func splitPython(name string) []string {
	if file, ok := agentFile(name); ok {
		return append(pathElems(file, pyRoot(file), nil), name[len(file):])
	}
	if !isPythonLoc(name) {
		return splitDotted(name)
	}
	open := strings.LastIndex(name, " (")
	loc := name[open+2 : len(name)-1]
	colon := strings.LastIndexByte(loc, ':')
	file, line := loc, ""
	if colon >= 0 {
		file, line = loc[:colon], loc[colon:]
	}
	out := pathElems(file, pyRoot(file), nil)
	out = cutAt(" "+name[:open], 0, open+1, dotSep, out)
	if line != "" {
		out = append(out, line)
	}
	return out
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
	return loc != "" && !strings.ContainsAny(loc, " ()") &&
		(strings.HasSuffix(loc, ".py") || strings.HasSuffix(loc, ".pyx") || strings.HasSuffix(loc, ".pyw"))
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

// pyRoot returns the length of the top unit of a Python file path.
func pyRoot(file string) int {
	for _, mark := range []string{"/site-packages/", "/dist-packages/"} {
		if i := strings.Index(file, mark); i >= 0 {
			return segEnd(file, i+len(mark))
		}
	}
	if i := strings.Index(file, "/python"); i >= 0 {
		if j := strings.IndexByte(file[i+1:], '/'); j >= 0 {
			return segEnd(file, i+1+j+1)
		}
	}
	if !strings.HasPrefix(file, "/") && !strings.Contains(file, ":") {
		return segEnd(file, 0)
	}
	return projectRoot(file)
}

// projectMarks are directories that sit at the top of a project's tree.
var projectMarks = []string{"/src/", "/lib/", "/dist/", "/build/", "/out/", "/app/"}

// projectRoot returns the length of the top unit of a file path outside any
// package directory: the project holding it, that is the path before its
// first src, lib, dist, build, out or app directory; else the file's
// directory.
func projectRoot(path string) int {
	best := -1
	for _, m := range projectMarks {
		if i := strings.Index(path, m); i > 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best > 0 && !strings.HasSuffix(path[:best], "/") && !strings.HasSuffix(path[:best], ":") {
		return best
	}
	return dirEnd(path)
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
