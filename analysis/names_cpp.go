package analysis

import "strings"

// C++ and Rust names: one element per "::"-separated scope outside
// brackets, so template and generic arguments ("vector<std::pair<K, V>>"),
// argument lists, "(anonymous namespace)", "{lambda(int)#1}" and Rust's
// "<T as Trait>" stay inside their element; the operator after "operator"
// ("operator<<", "operator()", "operator->") is no bracket. The first element
// is the outermost namespace or crate ("std", "v8", "tokio"), the last the
// function with its arguments and qualifiers.
//
//	std::vector<std::pair<int, int>>::push_back(int const&)
//	→ std · ::vector<std::pair<int, int>> · ::push_back(int const&)
func splitCpp(name string) []string {
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
