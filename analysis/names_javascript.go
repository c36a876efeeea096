package analysis

import (
	"strings"
)

// JavaScript names: "fn url:line:col", as the V8 and Chrome loaders write
// them. A reader of JavaScript names code by the module that holds it, as
// Node's module resolution finds it (Node.js documentation, "Modules:
// CommonJS modules", "All together"; "Modules: Packages"):
//
//   - a package installed from npm lies under a node_modules directory and
//     is named by the path element after it, or the two of a scoped
//     package: ".../node_modules/.pnpm/p-queue@7.4.1/node_modules/p-queue/
//     dist/index.js" is in "p-queue", ".../node_modules/@nx/js/src/x.js" in
//     "@nx/js" (the last node_modules wins, as pnpm nests them);
//   - Node's own modules are named with the "node:" scheme
//     ("node:internal/streams/readable" is in "node:internal", "node:fs" in
//     itself);
//   - a script loaded from the web is named by its origin
//     ("https://cdn.example.com");
//   - the application's own scripts (file URLs and absolute paths outside
//     node_modules) are named by their path relative to the project, the
//     directory that holds all of the profile's application scripts
//     ("packages/core/dist/bin/ponder.js" in "packages"); alone, a script
//     is named from its own directory;
//   - a relative URL is named as it is ("internal/timers.js", Node's own
//     modules before the "node:" scheme).
//
// The display puts the script first, from its module on, then the
// function and its position: "p-queue/dist/index.js add:92:13", with
// elements
//
//   - the module ("p-queue", "@nx/js", "node:internal", "packages");
//   - one element per further path element ("/dist", "/index.js");
//   - the function, cut at "." (" Module" · "._load");
//   - the position (":92:13").
//
// Pyroscope's Node agent writes "script:fn:line"
// ("./node_modules/@pyroscope/nodejs/dist/cjs/index.js:uploadProfile:148",
// "node:net:onconnection:2134"): the script's elements as above, then the
// rest whole (":uploadProfile:148").
//
// Without a URL ("a :1:11") the function comes first; names without a
// position ("(garbage collector)") are split at dots.
//
//	render https://x.org/js/app.js:3:9 → https://x.org · /js · /app.js · " render" · :3:9

// splitJS splits a JavaScript frame name; root is the project of the
// application's scripts ("" when unknown).
func splitJS(name, root string) []string {
	if url := agentScript(name); url != "" {
		return append(jsModule(url, root, nil), name[len(url):])
	}
	url, fn, pos, ok := jsLoc(name)
	if !ok {
		return splitDotted(name)
	}
	var out []string
	if url == "" {
		out = splitDotted(fn)
	} else {
		out = jsModule(url, root, nil)
		out = cutAt(" "+fn, 0, len(fn)+1, dotSep, out)
	}
	return append(out, pos)
}

// jsLoc parses "fn url:line:col" into its function, script URL and
// position (":line:col").
func jsLoc(name string) (url, fn, pos string, ok bool) {
	if !isJSLoc(name) {
		return "", "", "", false
	}
	sp := strings.LastIndexByte(name, ' ')
	loc := name[sp+1:]
	c2 := strings.LastIndexByte(loc, ':')
	c1 := strings.LastIndexByte(loc[:c2], ':')
	return loc[:c1], name[:sp], loc[c1:], true
}

// isJSLoc reports whether name has the form "fn url:line:col".
func isJSLoc(name string) bool {
	sp := strings.LastIndexByte(name, ' ')
	if sp <= 0 {
		return false
	}
	loc := name[sp+1:]
	c2 := strings.LastIndexByte(loc, ':')
	if c2 < 0 || !isNumber(loc[c2+1:]) {
		return false
	}
	c1 := strings.LastIndexByte(loc[:c2], ':')
	return c1 >= 0 && isNumber(loc[c1+1:c2])
}

// isNumber reports whether s is a decimal integer, maybe negative (V8
// writes negative columns for some module wrappers).
func isNumber(s string) bool { return isDigits(strings.TrimPrefix(s, "-")) }

// agentScript returns the script of a "script:fn:line" name, "" when name
// has not that form: the script is a Node built-in ("node:net") or a path
// ending in a script's extension.
func agentScript(name string) string {
	last := strings.LastIndexByte(name, ':')
	if last < 0 || !isDigits(name[last+1:]) || strings.ContainsRune(name, ' ') {
		return ""
	}
	end := -1
	if strings.HasPrefix(name, "node:") {
		end = len("node:") + strings.IndexByte(name[len("node:"):], ':')
	} else {
		for _, ext := range []string{".js:", ".mjs:", ".cjs:", ".ts:", ".jsx:", ".tsx:"} {
			if i := strings.Index(name, ext); i > 0 {
				end = i + len(ext) - 1
				break
			}
		}
	}
	if end <= len("node:") || end >= last {
		return ""
	}
	return name[:end]
}

// jsModule appends the elements of a script URL: its module, then one
// element per further path element (see the file comment).
func jsModule(url, root string, out []string) []string {
	rel := url
	switch {
	case npmPackage(url) >= 0:
		rel = url[npmPackage(url):]
		end := segEnd(rel, 0)
		if strings.HasPrefix(rel, "@") && end < len(rel) {
			end = segEnd(rel, end+1)
		}
		return pathElems(rel, end, out)
	case strings.HasPrefix(url, "node:"):
		return pathElems(url, segEnd(url, 0), out)
	case isWebURL(url):
		return pathElems(url, segEnd(url, strings.Index(url, "://")+3), out)
	case root != "" && strings.HasPrefix(url, root) && len(url) > len(root):
		rel = url[len(root):]
	case isAbsPath(url):
		rel = url[strings.LastIndexByte(url, '/')+1:]
	default:
		rel = strings.TrimPrefix(url, "./")
	}
	if rel == "" {
		rel = url
	}
	return pathElems(rel, segEnd(rel, 0), out)
}

// npmPackage returns where the package name of a script under node_modules
// starts, -1 when the script is not under node_modules.
func npmPackage(url string) int {
	i := strings.LastIndex(url, "node_modules/")
	if i < 0 || i > 0 && url[i-1] != '/' || i+len("node_modules/") >= len(url) {
		return -1
	}
	return i + len("node_modules/")
}

// isWebURL reports whether a URL has a scheme and a host other than a
// file's ("https://x.org/a.js", "wasm://wasm/0003626a").
func isWebURL(url string) bool {
	i := strings.Index(url, "://")
	return i > 0 && !strings.HasPrefix(url, "file:") && i+3 < len(url)
}

// isJSApp reports whether a script is the application's: a file URL or an
// absolute path outside node_modules.
func isJSApp(url string) bool {
	return npmPackage(url) < 0 && !isWebURL(url) && isAbsPath(url)
}
