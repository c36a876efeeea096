package analysis

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// CleanName returns the name a frame is shown and grouped by:
//
//   - a mangled C++ or Rust symbol ("_ZN3std2io5stdio6_print17h…E",
//     "_RNvCs…_5trace4main", with or without macOS's extra "_") is
//     demangled in full (arguments kept, clone suffixes dropped);
//   - a Rust legacy name that a profiler already demangled but left
//     escaped ("_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$…") is unescaped;
//   - Rust's "::h<16 hex digits>" hash is dropped, with an LLVM suffix after
//     it (" (.llvm.155…)", ".llvm.155…"), so that one function is one frame
//     whatever crate build it came from;
//   - a JVM descriptor method as perf-map-agent writes it,
//     "Lpkg/Class;::method" or "Lpkg/Class;.method", becomes
//     "pkg/Class.method", as JFR-derived profiles write Java methods.
//
// A module before the function ("rg`…", "Assembly!…"; see modulePrefix)
// is kept. Any other name is returned as is.
func CleanName(name string) string {
	if n := modulePrefix(name); n > 0 {
		if f := cleanFunc(name[n+1:]); f != name[n+1:] {
			return name[:n+1] + f
		}
		return name
	}
	return cleanFunc(name)
}

// cleanFunc is CleanName of a name without a module.
func cleanFunc(name string) string {
	if isMangled(name) {
		if d := demangle.Filter(name, demangle.NoClones); d != name && d != "" {
			// The library writes an empty path segment for a closure in
			// a constant ("THREAD_RNG_KEY::::{closure#0}"); c++filt does not.
			return strings.ReplaceAll(d, "::::", "::")
		}
	}
	if isDescriptor(name) {
		return descriptorMethod(name)
	}
	base, hashed := cutRustHash(name)
	if hashed || strings.Contains(base, "::") && hasRustEscape(base) {
		return unescapeRust(base)
	}
	return name
}

// descriptorMethod rewrites "Lpkg/Class;::m" or "Lpkg/Class;.m" as
// "pkg/Class.m"; a descriptor followed by anything else is kept.
func descriptorMethod(name string) string {
	semi := strings.IndexByte(name, ';')
	rest := name[semi+1:]
	switch {
	case strings.HasPrefix(rest, "::"):
		rest = "." + rest[2:]
	case rest != "" && rest[0] != '.':
		return name
	}
	return name[1:semi] + rest
}

// isMangled reports whether name looks like an Itanium C++ or a Rust (legacy
// or v0) symbol: "_Z…", "_R…" or, on macOS, "__Z…", "__R…", with no space.
func isMangled(name string) bool {
	s := name
	if strings.HasPrefix(s, "__") {
		s = s[1:]
	}
	return len(s) > 3 && s[0] == '_' && (s[1] == 'Z' || s[1] == 'R') && !strings.ContainsAny(name, " ()<>:")
}

// cutRustHash drops a trailing "::h" and 16 hex digits, and an LLVM suffix
// after it; hashed says whether there was one.
func cutRustHash(name string) (base string, hashed bool) {
	s := name
	if i := strings.LastIndex(s, ".llvm."); i > 0 && isDigits(strings.TrimSuffix(s[i+len(".llvm."):], ")")) {
		s = strings.TrimSuffix(s[:i], " (")
	}
	i := len(s) - len("::h0123456789abcdef")
	if i <= 0 || s[i:i+3] != "::h" {
		return name, false
	}
	for _, c := range s[i+3:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return name, false
		}
	}
	return s[:i], true
}

// rustEscapes are the escapes of rustc's legacy mangling, as profilers that
// strip only the outer "_ZN…E" leave them.
var rustEscapes = strings.NewReplacer(
	"$SP$", "@", "$BP$", "*", "$RF$", "&", "$LT$", "<", "$GT$", ">",
	"$LP$", "(", "$RP$", ")", "$C$", ",",
	"$u20$", " ", "$u22$", `"`, "$u27$", "'", "$u2b$", "+", "$u3b$", ";",
	"$u5b$", "[", "$u5d$", "]", "$u7b$", "{", "$u7d$", "}", "$u7e$", "~",
	"..", "::",
)

// hasRustEscape reports whether s holds one of rustEscapes' "$…$" escapes.
func hasRustEscape(s string) bool {
	for _, e := range []string{"$LT$", "$GT$", "$RF$", "$BP$", "$C$", "$SP$", "$LP$", "$u20$", "$u7b$", "$u5b$"} {
		if strings.Contains(s, e) {
			return true
		}
	}
	return false
}

// unescapeRust undoes the legacy escapes; a path segment that starts with
// "_$" loses its "_" (rustc adds it so that the segment starts like an
// identifier), as rustc-demangle does.
func unescapeRust(s string) string {
	if strings.HasPrefix(s, "_$") {
		s = s[1:]
	}
	s = strings.ReplaceAll(s, "::_$", "::$")
	return rustEscapes.Replace(strings.ReplaceAll(s, ".._$", "..$"))
}
