package analysis

import "strings"

// JVM names: "package.Class.method", with "/" instead of "." in descriptor
// forms ("Lorg/mozilla/javascript/ScriptableObject;.createSlot", as written
// by perf-map-agent) and an optional tail from the first "(" on (arguments
// or a source location) that stays with the method. The segments:
//
//   - the first element is the top unit: for a reverse domain name (first
//     segment com, org, net, io, ...) the first three package segments
//     ("org.apache.axis"), else the first segment ("java", "lib2");
//   - each further package segment, then each class segment, is one element;
//     inner classes are cut at "$" ("Outer" · "$Inner" · "$1"), a lambda
//     class "$$Lambda$14/0x…" is one element;
//   - the method, with its tail, is the last element ("lambda$main$0" whole).
//
// A class is the first segment starting with an upper-case letter; when no
// segment does, every segment but the last is a package.
//
//	org.apache.axis.utils.ClassUtils.forName
//	→ org.apache.axis · .utils · .ClassUtils · .forName
func splitJVM(name string) []string {
	head := len(name)
	if i := strings.IndexAny(name, "( "); i > 0 {
		head = i
	}
	var segs []string // each with its leading separator, except the first
	start := 0
	for i := 1; i < head; i++ {
		if c := name[i]; (c == '.' || c == '/') && !inLambda(name, start, i) {
			segs = append(segs, name[start:i])
			start = i
		}
	}
	segs = append(segs, name[start:])
	if len(segs) == 1 {
		return segs
	}
	desc := segs[0][0] == 'L' && strings.Contains(name, ";")
	method := len(segs) - 1
	class := method
	for i, s := range segs[:method] {
		c := strings.TrimLeft(s, "./")
		if i == 0 && desc {
			c = c[1:]
		}
		if c != "" && c[0] >= 'A' && c[0] <= 'Z' {
			class = i
			break
		}
	}
	root := 1
	first := segs[0]
	if desc {
		first = first[1:]
	}
	if isTLD(first) {
		root = max(1, min(3, class))
	}
	var out []string
	if class == 0 {
		out = splitInner(segs[0], nil)
	} else {
		out = []string{strings.Join(segs[:root], "")}
	}
	for i := root; i < method; i++ {
		if i < class {
			out = append(out, segs[i])
		} else {
			out = splitInner(segs[i], out)
		}
	}
	return append(out, segs[method])
}

// inLambda reports whether position i of name lies inside a "$$Lambda"
// class name begun in name[start:i].
func inLambda(name string, start, i int) bool {
	return name[i] == '/' && strings.Contains(name[start:i], "$$Lambda")
}

// splitInner appends a class segment cut at "$" (inner and anonymous
// classes); "$$Lambda…" stays whole.
func splitInner(s string, out []string) []string {
	if i := strings.Index(s, "$$Lambda"); i > 0 {
		return append(splitInner(s[:i], out), s[i:])
	}
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == '$' && s[i-1] != '$' && i > start+1 {
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// tlds are the first segments of reverse domain names.
var tlds = map[string]bool{
	"com": true, "org": true, "net": true, "io": true, "edu": true, "gov": true,
	"co": true, "uk": true, "de": true, "fr": true, "nl": true, "ch": true,
	"jp": true, "cn": true, "ru": true, "br": true, "it": true, "es": true,
	"se": true, "no": true, "fi": true, "dk": true, "be": true, "at": true,
	"au": true, "ca": true, "us": true, "eu": true, "info": true, "biz": true,
	"me": true, "dev": true, "app": true, "ai": true, "in": true, "kr": true,
	"pl": true, "cz": true, "hu": true, "il": true, "tw": true, "mil": true,
}

// isTLD reports whether s is a top-level domain used as a package root.
func isTLD(s string) bool { return tlds[s] }
