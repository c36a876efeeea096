package analysis

import "strings"

// Display names. Every view shows a frame, or a compacted node, by the
// same name: its elements concatenated (Split), with the directory that all
// of the profile's paths share left out (Names.Common), so that
// "file:///Users/x/proj/node_modules/piscina/dist/index.js" shows as
// "node_modules/piscina/dist/index.js" in the flame graph, the radial view,
// the phases table, top and tree alike. Tooltips and JSON keep the full
// name.

// Short returns a displayed name (full or compacted) without the profile's
// common directory; other names are returned as they are.
func (n *Names) Short(name string) string {
	if n == nil || n.Common == "" || len(name) <= len(n.Common) || !strings.HasPrefix(name, n.Common) {
		return name
	}
	return name[len(n.Common):]
}

// Show returns how the views show a frame named name: its elements
// concatenated, shortened (Short). A name that is no frame of the profile
// is shown by its display (Display).
func (n *Names) Show(name string) string {
	if n == nil {
		return name
	}
	n.once.Do(func() {
		n.byName = make(map[string]int32, len(n.frames))
		for f := len(n.frames) - 1; f >= 0; f-- {
			n.byName[n.frames[f].Name] = int32(f)
		}
	})
	if f, ok := n.byName[name]; ok && int(f) < len(n.Elems) && n.Elems[f] != nil {
		return n.Short(n.Prefix(f, len(n.Elems[f])))
	}
	return n.Short(Display(name, n.Lang))
}

// ShowFrame returns how the views show frame f: its elements
// concatenated, shortened (Short).
func (n *Names) ShowFrame(f int32) string {
	if n == nil || int(f) >= len(n.Elems) {
		return ""
	}
	return n.Short(n.Prefix(f, len(n.Elems[f])))
}

// sharedDir returns the directory, with its trailing "/", that the first
// elements of all frames named after a path or URL lie in, when it holds
// at least one directory below the root or the URL's origin; else "".
func sharedDir(n *Names) string {
	var common string
	found := false
	seen := make(map[int32]bool)
	for _, e := range n.Elems {
		if len(e) == 0 || seen[e[0]] {
			continue
		}
		seen[e[0]] = true
		s := n.Strings[e[0]]
		if !isPath(s) {
			continue
		}
		if !found {
			common, found = s, true
			continue
		}
		common = common[:commonLen(common, s)]
	}
	if !found {
		return ""
	}
	// A first element is a directory without its trailing "/": keep its
	// last segment, and cut a partial segment.
	dir := common[:strings.LastIndexByte(common, '/')+1]
	if strings.Trim(strings.TrimPrefix(strings.TrimPrefix(dir, origin(dir)), "file:"), "/") == "" {
		return ""
	}
	return dir
}

// isPath reports whether s is an absolute path or a URL.
func isPath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.Contains(s, "://")
}

// origin returns the "scheme://host" that starts a URL, "" for a path.
func origin(s string) string {
	i := strings.Index(s, "://")
	if i < 0 || strings.HasPrefix(s, "file:") {
		return ""
	}
	return s[:segEnd(s, i+3)]
}

// commonLen returns the length of the longest common prefix of a and b.
func commonLen(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
