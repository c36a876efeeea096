package analysis

import "strings"

// Native names. A C function ("malloc", "__libc_start_main@@GLIBC_2.2.5")
// has no namespace: its name is one element. A reader groups such
// functions by the binary or library that holds them, which native
// profilers record beside the name (perf's DSO, pprof's mapping, the Gecko
// format's library; Frame.Lib). For a frame whose name is one element, the
// library is the first element and the function follows after "`", the
// separator DTrace writes between them ("libc.so.1`malloc"):
//
//	malloc in /usr/lib/x86_64-linux-gnu/libc.so.6 → libc.so.6 · `malloc
//	do_syscall_64 in [kernel.kallsyms] → [kernel.kallsyms] · `do_syscall_64
//
// Names with a top unit of their own (a Go package, a C++ namespace, a JVM
// package, a Python module) keep it: one library holds many packages, and
// their reader means the package. The library is the base name of its path.
// A frame named after its library ("[libc.so.6]", perf's unknown symbol)
// stays as it is.
//
// Where the frame has no library, its file stands for it when the file
// names a binary rather than a source file (perf writes the DSO there):
// "[kernel.kallsyms]", a shared library ("libc.so.6", "libfoo.dylib",
// "x.dll"), or a file without a source extension ("/usr/bin/dd",
// "python3.11").
//
// A C symbol's version ("@@GLIBC_2.2.5", ELF symbol versioning) and the
// suffixes that GCC gives the clones it makes of a function (".isra.0",
// ".part.1", ".constprop.0", ".cold", ".lto_priv.0", ".localalias") belong
// to the function's element; they are not name elements.

// libName returns the library shown for a frame, "" when it has none.
func libName(fr Frame) string {
	lib := fr.Lib
	if lib == "" && isBinary(fr.File) {
		lib = fr.File
	}
	if lib == "" || strings.HasPrefix(lib, "[") {
		if lib == "[unknown]" {
			return ""
		}
		return lib
	}
	return lib[strings.LastIndexAny(lib, `/\`)+1:]
}

// isLibFrame reports whether a frame is named after its library alone.
func isLibFrame(name, lib string) bool {
	return name == "["+lib+"]" || name == lib || strings.HasPrefix(name, "["+lib+" ")
}

// binaryExts are the extensions of binaries and libraries.
var binaryExts = map[string]bool{"so": true, "dylib": true, "dll": true, "exe": true, "node": true, "ko": true}

// isBinary reports whether a file names a binary or a library (see the
// file comment).
func isBinary(f string) bool {
	if f == "" || f == "[unknown]" || strings.ContainsAny(f, " :") {
		return false
	}
	if f[0] == '[' {
		return f[len(f)-1] == ']'
	}
	base := f[strings.LastIndexAny(f, `/\`)+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return base != "" && f[0] == '/'
	}
	ext := base[dot+1:]
	return binaryExts[ext] || isDigits(ext)
}

// cloneWords are the words of GCC's suffixes for the clones of a function
// ("foo.isra.0", "foo.part.1", "foo.constprop.0.isra.0", "foo.cold").
var cloneWords = map[string]bool{
	"isra": true, "part": true, "constprop": true, "cold": true, "lto_priv": true,
	"localalias": true, "clone": true, "hot": true, "unlikely": true,
}

// symbolTail returns where a C symbol's version or clone suffix starts in
// name, len(name) when it has none.
func symbolTail(name string) int {
	end := len(name)
	if i := strings.IndexByte(name, '@'); i > 0 && !strings.ContainsAny(name[i:], " ()<>") {
		end = i
	}
	tail := end
	for {
		dot := strings.LastIndexByte(name[:tail], '.')
		if dot <= 0 {
			break
		}
		w := name[dot+1 : tail]
		if !isDigits(w) && !cloneWords[w] {
			break
		}
		if cloneWords[w] {
			end = dot
		}
		tail = dot
	}
	return end
}
