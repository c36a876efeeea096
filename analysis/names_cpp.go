package analysis

import "strings"

// C++ and Rust names, as demangled by the Itanium C++ ABI's demangler
// (c++filt, libiberty's cp-demangle, the ianlancetaylor/demangle package)
// and by rustc-demangle. The demangler's output grammar prints a function
// as [return type " "] qualified-name [template-args] "(" parameters ")"
// [qualifiers], where the qualified name is the nested name, its scopes
// separated by "::" (Itanium C++ ABI, §5.1.5 "Names"). A reader of C++
// means the namespaces, the class, then the function: one element per
// "::"-separated scope outside brackets. What the grammar puts around or
// inside the scopes is no element of its own and stays with the element
// it belongs to: template arguments ("vector<std::pair<K, V>>"), the
// parameter list and qualifiers ("push_back(int const&) const"),
// "(anonymous namespace)", "{lambda(int)#1}" and Rust's "<T as Trait>";
// the operator after "operator" ("operator<<", "operator()", "operator->")
// opens no bracket. The first element is the outermost namespace or crate
// ("std", "v8", "tokio"), the last the function with its parameters.
//
// A special name of the ABI ("non-virtual thunk to mozilla::Foo::Run()",
// "vtable for Foo") is named after the entity it serves: the display puts
// its kind after it in brackets, "mozilla::Foo::Run() [non-virtual thunk]".
//
// A return type, which the demangler prints first for function template
// instantiations ("bool std::operator==<char>(…)"), is not a scope: the
// display moves it after the parameters in C++'s trailing return type
// syntax, "std::operator==<char>(…) -> bool", so that the name starts with
// its outermost namespace.
//
// Rust crates are the first element (rustc's paths are crate::module::item):
// "tokio" · "::runtime" · … An inherent impl's methods are written
// "<Type>::method" by the legacy demangling: the display drops those
// brackets ("<term::Terminal<T>>::new" is "term::Terminal<T>::new"), so the
// type's crate comes first. A trait method, "<Type as Trait>::method", names
// no crate of its own: its qualified self type, kept whole, is the first
// element; an "<impl Trait for Type>" inside a path stays one element.
//
//	std::vector<std::pair<int, int>>::push_back(int const&)
//	→ std · ::vector<std::pair<int, int>> · ::push_back(int const&)

// splitCpp splits a C++ or Rust name (see the file comment).
func splitCpp(name string) []string {
	if inner := rustInherent(name); inner != "" {
		name = inner
	}
	for _, p := range specialNames {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" {
			out := splitCpp(rest)
			out[len(out)-1] += " [" + p[:strings.LastIndexByte(p[:len(p)-1], ' ')] + "]"
			return out
		}
	}
	if i := returnStart(name); i > 0 {
		out := splitScopes(name[i:])
		out[len(out)-1] += " -> " + name[:i-1]
		return out
	}
	return splitScopes(name)
}

// rustInherent returns "Type::rest" for a name "<Type>::rest" whose
// brackets hold no "as" and no "impl"; "" for any other name.
func rustInherent(name string) string {
	if !strings.HasPrefix(name, "<") || strings.HasPrefix(name, "<impl ") {
		return ""
	}
	depth := 0
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				if !strings.HasPrefix(name[i+1:], "::") || strings.Contains(name[1:i], " as ") {
					return ""
				}
				return name[1:i] + name[i+1:]
			}
		}
	}
	return ""
}

// specialNames are the prefixes of the Itanium ABI's special names
// (§5.1.4, as the demangler prints them), which are no return types.
var specialNames = []string{
	"non-virtual thunk to ", "virtual thunk to ", "covariant return thunk to ",
	"construction vtable for ", "vtable for ", "VTT for ", "typeinfo name for ", "typeinfo for ",
	"guard variable for ", "reference temporary for ", "transaction clone for ",
	"TLS init function for ", "TLS wrapper function for ",
}

// returnStart returns where the qualified name starts after a return type
// ("bool std::f<char>(int)" → 5); 0 when the name has no return type. The
// return type ends at the last space outside brackets before the
// parameter list and before an "operator" keyword.
func returnStart(name string) int {
	depth, space := 0, -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case depth == 0 && isOperator(name, i):
			i = len(name)
		case c == '(' && depth == 0 && i > 0 && name[i-1] != ':' && name[i-1] != ' ':
			i = len(name)
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '}' || c == '>':
			if depth > 0 {
				depth--
			}
		case c == ' ' && depth == 0:
			space = i
		}
	}
	if space <= 0 {
		return 0
	}
	return space + 1
}

// splitScopes cuts a C++ name before every "::" outside brackets.
func splitScopes(name string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case isOperator(name, i):
			i = skipOperator(name, i+len("operator")) - 1
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '}' || c == '>':
			if depth > 0 {
				depth--
			}
		case c == ':' && depth == 0 && i > start && strings.HasPrefix(name[i:], "::"):
			out = append(out, name[start:i])
			start = i
			i++
		}
	}
	return append(out, name[start:])
}

// isOperator reports whether the word "operator" starts at i.
func isOperator(name string, i int) bool {
	if !strings.HasPrefix(name[i:], "operator") {
		return false
	}
	if i > 0 && isIdent(name[i-1]) {
		return false
	}
	j := i + len("operator")
	return j < len(name) && !isIdent(name[j])
}

// skipOperator returns the index after the operator symbol that starts at
// or after j ("<<", "()", "[]", "->", "new[]"); a conversion operator's
// type ("operator bool") is left to the caller.
func skipOperator(name string, j int) int {
	for j < len(name) && name[j] == ' ' {
		j++
	}
	if strings.HasPrefix(name[j:], "()") || strings.HasPrefix(name[j:], "[]") {
		return j + 2
	}
	for j < len(name) && strings.IndexByte("<>=!+-*/%&|^~,", name[j]) >= 0 {
		j++
	}
	return j
}

// isIdent reports whether c can be part of an identifier.
func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
