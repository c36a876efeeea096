package firefox

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// jsLocation is a Gecko JavaScript frame: "fn (url:line:col)", optionally
// followed by a source index ("[12]").
var jsLocation = regexp.MustCompile(`^(.*) \(([^ ()]+?)(?::(\d+))?(?::(\d+))?\)(?:\[\d+\])?$`)

// geckoFrame turns a Gecko frame location into a frame: JavaScript frames
// (those whose location names a URL or "self-hosted") as "fn url:line:col",
// others as they are.
func geckoFrame(loc string) analysis.Frame {
	m := jsLocation.FindStringSubmatch(loc)
	if m == nil || !strings.Contains(m[2], "/") && m[2] != "self-hosted" {
		return analysis.Frame{Name: loc}
	}
	line, _ := strconv.ParseInt(m[3], 10, 64)
	col, _ := strconv.ParseInt(m[4], 10, 64)
	return jsFrame(m[1], m[2], line, col)
}

// jsFrame names a JavaScript function as the V8 and Chrome loaders do.
func jsFrame(fn, url string, line, col int64) analysis.Frame {
	name := fn + " " + url
	if line > 0 {
		name += ":" + strconv.FormatInt(line, 10)
		if col > 0 {
			name += ":" + strconv.FormatInt(col, 10)
		}
	}
	return analysis.Frame{Name: name, File: url, Line: line}
}
