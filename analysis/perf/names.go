package perf

import (
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Frame names of perf script stack lines. By default a name is the symbol
// as perf wrote it, up to its "+0x…" offset and its " (dso)" suffix:
// C++ argument lists and templates stay whole ("std::function<int (int,
// int)>::operator()"), a JIT's Java descriptor "Lpkg/Class;::method" (or
// ";.method") becomes "pkg/Class.method", as JFR-derived profiles name
// Java methods, and ';', which separates frames in folded stacks, becomes
// ':'. With perfOptions.flamegraph, names are tidied as stackcollapse-perf.pl
// (FlameGraph 41fee1f) tidies them; see perf.go.

// tidy turns a perf symbol into a frame name.
func (pp *perfParser) tidy(f, pc, mod string, inlined bool) string {
	if f == "[unknown]" {
		f = "unknown"
		if mod != "[unknown]" {
			f = mod[strings.LastIndexByte(mod, '/')+1:]
		}
		if pp.o.addrs {
			f = "[" + f + " <" + pc + ">]"
		} else {
			f = "[" + f + "]"
		}
	}
	if !pp.o.flamegraph {
		return pp.annotate(strings.ReplaceAll(analysis.CleanName(f), ";", ":"), mod, inlined)
	}
	f = strings.ReplaceAll(f, ";", ":")
	if !isGoMethod(f) {
		f = cutParen(f)
	}
	f = unquote.Replace(f)
	if pp.isJava() && strings.Contains(f, "/") {
		f = strings.TrimPrefix(f, "L")
	}
	return pp.annotate(f, mod, inlined)
}

// isGoMethod reports whether f looks like "net/http.(*Client).Do": a ".("
// followed later by ")." (stackcollapse-perf's test).
func isGoMethod(f string) bool {
	i := strings.Index(f, ".(")
	return i >= 0 && strings.Contains(f[i+2:], ").")
}

// cutParen cuts f at its first '(' that does not open "(anonymous namespace)".
func cutParen(f string) string {
	for i := 0; i < len(f); i++ {
		if f[i] == '(' && !strings.HasPrefix(f[i+1:], "anonymous namespace)") {
			return f[:i]
		}
	}
	return f
}

// annotate adds the _[i], _[k] and _[j] suffixes the options ask for.
func (pp *perfParser) annotate(f, mod string, inlined bool) string {
	again := func(tag string) bool { return pp.o.before2023 || !strings.Contains(f, tag) }
	switch {
	case inlined:
		if again("_[i]") {
			f += "_[i]"
		}
	case pp.o.kernel && (strings.HasPrefix(mod, "[") || strings.HasSuffix(mod, "vmlinux")) && !strings.Contains(mod, "unknown"):
		f += "_[k]"
	case pp.o.jit && perfJIT.MatchString(mod):
		if again("_[j]") {
			f += "_[j]"
		}
	}
	return f
}

// stripOffset removes a trailing "+0x1f" offset (lower-case hex digits).
func stripOffset(s string) string {
	i := strings.LastIndex(s, "+0x")
	if i < 0 || i+3 == len(s) {
		return s
	}
	for _, c := range s[i+3:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return s
		}
	}
	return s[:i]
}

var unquote = strings.NewReplacer(`"`, "", "'", "")
