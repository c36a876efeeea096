// Package formats registers every profile format that proflens reads, by
// importing each format's package for its side effect, and holds the demo
// profiles, which need some of them. The kernel and the binary import this
// one package; a new format is a package under analysis/ added to the list
// below.
package formats

import (
	_ "github.com/proflens/proflens/analysis/austin"
	_ "github.com/proflens/proflens/analysis/cachegrind"
	_ "github.com/proflens/proflens/analysis/callgrind"
	_ "github.com/proflens/proflens/analysis/chrome"
	_ "github.com/proflens/proflens/analysis/dtrace"
	_ "github.com/proflens/proflens/analysis/firefox"
	_ "github.com/proflens/proflens/analysis/folded"
	_ "github.com/proflens/proflens/analysis/gotrace"
	_ "github.com/proflens/proflens/analysis/hprof"
	_ "github.com/proflens/proflens/analysis/jfr"
	_ "github.com/proflens/proflens/analysis/macsample"
	_ "github.com/proflens/proflens/analysis/perf"
	_ "github.com/proflens/proflens/analysis/pprof"
	_ "github.com/proflens/proflens/analysis/pyinstrument"
	_ "github.com/proflens/proflens/analysis/speedscope"
	_ "github.com/proflens/proflens/analysis/v8"
)
