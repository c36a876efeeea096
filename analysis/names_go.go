package analysis

import "strings"

// Go names: "import/path.Rest". The package path ends at the first "." after
// its last "/" (Go escapes dots of the last path element as %2e, so
// "gopkg.in/yaml%2ev3.(*parser).parse" is unambiguous; the unescaped
// "gopkg.in/yaml.v3" form is recognised too). The path gives:
//
//   - first element, the module root: for the standard library, the top
//     directory ("net" of net/http, "runtime" of runtime/internal/atomic);
//     for github.com, gitlab.com, bitbucket.org, gitee.com, codeberg.org,
//     git.sr.ht and golang.org/x, host/owner/repo; for any other host,
//     host/name ("go.uber.org/zap", "k8s.io/client-go"); a following major
//     version element ("/v3") belongs to the root;
//   - one element per further path element ("/profile", "/internal");
//
// and the rest one element per "." outside brackets: receiver "(*Profile)",
// method "Write", closures "func1" and their nesting "2", generic
// instantiations "Map[...]" kept whole.
//
//	github.com/google/pprof/profile.(*Profile).Write
//	→ github.com/google/pprof · /profile · .(*Profile) · .Write
func splitGo(name string) []string {
	limit := len(name)
	if i := strings.IndexAny(name, "[( "); i >= 0 {
		limit = i
	}
	slash := strings.LastIndexByte(name[:limit], '/')
	end := limit
	if i := strings.IndexByte(name[slash+1:limit], '.'); i >= 0 {
		end = slash + 1 + i
	}
	end = gopkgVersion(name, slash, end)
	if end == 0 || name[0] == '/' {
		return splitDotted(name)
	}
	out := goPath(name[:end], nil)
	return cutAt(name, end, len(name), dotSep, out)
}

// dotSep cuts before every ".".
func dotSep(s string, i int) int {
	if s[i] == '.' {
		return 1
	}
	return 0
}

// gopkgVersion extends the package end over ".vN" for gopkg.in paths.
func gopkgVersion(name string, slash, end int) int {
	if !strings.HasPrefix(name, "gopkg.in/") || end+2 > len(name) || name[end+1] != 'v' {
		return end
	}
	j := end + 2
	for j < len(name) && name[j] >= '0' && name[j] <= '9' {
		j++
	}
	if j > end+2 && (j == len(name) || name[j] == '.') {
		return j
	}
	return end
}

// threePart lists hosts whose repositories are host/owner/repo.
var threePart = map[string]bool{
	"github.com": true, "gitlab.com": true, "bitbucket.org": true,
	"gitee.com": true, "codeberg.org": true, "git.sr.ht": true,
}

// goPath appends the elements of an import path: its module root, then one
// element per further path element.
func goPath(path string, out []string) []string {
	segs := strings.Split(path, "/")
	n := 1
	if strings.Contains(segs[0], ".") {
		n = 2
		if threePart[segs[0]] || (segs[0] == "golang.org" && len(segs) > 1 && segs[1] == "x") {
			n = 3
		}
	}
	if n > len(segs) {
		n = len(segs)
	}
	if n < len(segs) && isMajor(segs[n]) {
		n++
	}
	out = append(out, strings.Join(segs[:n], "/"))
	for _, s := range segs[n:] {
		out = append(out, "/"+s)
	}
	return out
}

// isMajor reports whether s is a major-version path element: v2, v3, ...
func isMajor(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
