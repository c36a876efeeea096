package analysis

import "strings"

// Module-led names: some formats write a frame's module (binary, library or
// assembly) before its function, with a separator that no language uses
// inside a function name:
//
//   - DTrace, "module`function": "rg`std::fs::read_dir", "genunix`fop_read";
//   - .NET (PerfView, dotnet-trace, Pyroscope's agent), "Assembly!Type.Method":
//     "System.Private.CoreLib!System.Threading.Thread.StartCallback";
//   - async-profiler's native frames as JFR converters name them,
//     "library.so.function": "libc-2.31.so.epoll_wait",
//     "libjvm.so.G1BarrierSet::invalidate".
//
// The module is the first element; the function follows with the separator
// in front of its first element, split by its own language (a .NET method
// by names_dotnet.go):
//
//	rg`std::fs::read_dir → rg · `std · ::fs · ::read_dir

// modulePrefix returns the length of name's module, 0 when it has none.
func modulePrefix(name string) int {
	if i := strings.IndexAny(name, "`!"); i > 0 && i+1 < len(name) && isModule(name[:i]) {
		if name[i] == '`' || name[i+1] != '=' {
			return i
		}
	}
	return sharedLibrary(name)
}

// isModule reports whether s can name a module: letters, digits and
// "_.+-", starting with neither a dot nor a dash.
func isModule(s string) bool {
	if s[0] == '.' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isIdent(c) && c != '.' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

// sharedLibrary returns the length of a leading "name.so" or
// "name.so.1.2" followed by "." and a function name that does not start
// with a digit; 0 when there is none.
func sharedLibrary(name string) int {
	for from := 0; ; {
		i := strings.Index(name[from:], ".so")
		if i < 0 {
			return 0
		}
		end := from + i + len(".so")
		for end+1 < len(name) && name[end] == '.' && isDigit(name[end+1]) {
			end++
			for end < len(name) && isDigit(name[end]) {
				end++
			}
		}
		if end+1 < len(name) && name[end] == '.' && !isDigit(name[end+1]) && from+i > 0 && isModule(name[:end]) {
			return end
		}
		if end >= len(name) || !isModule(name[:end]) {
			return 0
		}
		from = end
	}
}

// isDigit reports whether c is a decimal digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
