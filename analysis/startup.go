package analysis

import (
	"regexp"
	"strings"
)

// startupFrames are the frames that run before a program's own entry, or
// that start its threads, per language: the loader's, the C library's, the
// Go runtime's and the JVM's start-up chains. A name is looked up without
// a symbol version ("@@GLIBC_2.34") or a parameter list.
var startupFrames = map[Lang][]string{
	LangCpp: { // C, C++ and Rust through the C library and the loader
		"_start", "__libc_start_main", "__libc_start_call_main", "(below main)", "_dl_start", "_dl_start_final", "_dl_start_user",
		"start_thread", "clone", "clone3", "__clone", "__clone3", "thread_start", "_pthread_start",
		"BaseThreadInitThunk", "RtlUserThreadStart",
		"std::rt::lang_start", "std::rt::lang_start_internal",
	},
	LangGo: {"runtime.goexit", "runtime.main", "runtime.rt0_go", "runtime.mstart", "runtime.mstart0", "runtime.mstart1"},
	LangJVM: {
		"java_start", "thread_native_entry", "Thread::call_run", "JavaThread::run", "JavaThread::thread_main_inner",
		"JavaMain", "java.lang.Thread.run", "java.lang.Thread.runWith",
	},
	LangPython: {"_run_module_as_main", "_run_code"},
	LangJS:     {"(root)"},
}

// startupNames is startupFrames as a set.
var startupNames = func() map[string]bool {
	out := map[string]bool{}
	for _, names := range startupFrames {
		for _, n := range names {
			out[n] = true
		}
	}
	return out
}()

// IsStartup reports whether name is a start-up frame of its language: the
// loader's, the C library's or a runtime's frames that call the program's
// entry or start its threads (runtime.goexit and runtime.main in Go,
// _start, __libc_start_main and valgrind's "(below main)" in C, the JVM's
// thread starts).
func IsStartup(name string) bool {
	if i := strings.IndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	return startupNames[name]
}

// address is an unsymbolized frame: a bare code address.
var address = regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`)

// IsPlaceholder reports whether name stands for no one function: a bare
// address ("0x1ab70"), a name in brackets or parentheses that a tool gives
// to what it could not name or to a group of frames ("[unknown]",
// "[libc.so.6]", "(below main)", "(root)", "(garbage collector)"), or "??".
// Two frames with such a name need not be the same function.
func IsPlaceholder(name string) bool {
	switch {
	case name == "" || name == "??" || name == "<unknown>" || name == "unknown":
		return true
	case address.MatchString(name):
		return true
	case strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]"):
		return true
	case strings.HasPrefix(name, "(") && strings.HasSuffix(name, ")") && !strings.Contains(name[1:len(name)-1], "("):
		return true
	}
	return false
}

// Startup marks the nodes of t's start-up chains: from each root down, the
// nodes whose frames are start-up frames (IsStartup) or placeholders
// (IsPlaceholder), as long as every node above them is marked too, and
// where a placeholder has a start-up frame at or below it in the chain (so
// an "[unknown]" root over the program's code is not start-up). The
// program's entry is the first unmarked node on a path. Time is linear in
// the tree.
func (t *Tree) Startup() []bool {
	n := t.Len()
	mark := make([]bool, n)
	named := make([]bool, n) // a start-up frame at or below, within the chain
	for i := range n {       // pre-order: parents first
		name := t.Name(int32(i))
		p := t.Parent[i]
		if (p < 0 || mark[p]) && (IsStartup(name) || IsPlaceholder(name)) {
			mark[i], named[i] = true, IsStartup(name)
		}
	}
	for i := n - 1; i >= 0; i-- { // children before parents
		if p := t.Parent[i]; p >= 0 && mark[i] && named[i] {
			named[p] = true
		}
	}
	for i := range n {
		if mark[i] && !named[i] {
			mark[i] = false
		}
		if p := t.Parent[i]; p >= 0 && !mark[p] {
			mark[i] = false
		}
	}
	return mark
}
