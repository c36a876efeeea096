package analysis

import (
	"strings"
)

// JavaScript names: "fn url:line:col", as the V8 and Chrome loaders write
// them. The display puts the script first: "url fn:line:col", with elements
//
//   - the top unit: the package of a node_modules path
//     (".../node_modules/@scope/pkg"), the origin of an http(s) URL
//     ("https://cdn.example.com"), the module group of a Node built-in
//     ("node:internal"), else the script's project (the path before its
//     first src, lib, dist, build, out or app directory) or directory;
//   - one element per further path element ("/app.js");
//   - the function, cut at "." (" Object" · ".keys" · ".forEach");
//   - the position (":3:9").
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
func splitJS(name string) []string {
	if url := agentScript(name); url != "" {
		return append(pathElems(url, jsRoot(url), nil), name[len(url):])
	}
	if !isJSLoc(name) {
		return splitDotted(name)
	}
	sp := strings.LastIndexByte(name, ' ')
	loc := name[sp+1:]
	c2 := strings.LastIndexByte(loc, ':')
	c1 := strings.LastIndexByte(loc[:c2], ':')
	url, pos := loc[:c1], loc[c1:]
	var out []string
	if url == "" {
		out = splitDotted(name[:sp])
	} else {
		out = pathElems(url, jsRoot(url), nil)
		out = cutAt(" "+name[:sp], 0, sp+1, dotSep, out)
	}
	return append(out, pos)
}

// isJSLoc reports whether name has the form "fn url:line:col".
func isJSLoc(name string) bool {
	sp := strings.LastIndexByte(name, ' ')
	if sp <= 0 {
		return false
	}
	loc := name[sp+1:]
	c2 := strings.LastIndexByte(loc, ':')
	if c2 < 0 || !isDigits(loc[c2+1:]) {
		return false
	}
	c1 := strings.LastIndexByte(loc[:c2], ':')
	return c1 >= 0 && isDigits(loc[c1+1:c2])
}

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

// jsRoot returns the length of the top unit of a script URL.
func jsRoot(url string) int {
	if i := strings.LastIndex(url, "/node_modules/"); i >= 0 {
		from := i + len("/node_modules/")
		end := segEnd(url, from)
		if strings.HasPrefix(url[from:], "@") && end < len(url) {
			end = segEnd(url, end+1)
		}
		return end
	}
	if i := strings.Index(url, "://"); i > 0 && strings.HasPrefix(url, "http") {
		return segEnd(url, i+3)
	}
	if strings.HasPrefix(url, "node:") {
		return segEnd(url, 0)
	}
	return projectRoot(url)
}
