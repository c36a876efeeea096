// Package callgrind reads valgrind's callgrind_out files (the Callgrind
// Format, version 1, https://valgrind.org/docs/manual/cl-format.html), also
// written by xdebug and by pprof -callgrind.
//
// A callgrind file is a call graph, not a set of stacks: per function, its
// self cost (regular cost lines, one counter per event of the "events:"
// line), and per call site the callee, how many calls were made (calls=)
// and their inclusive cost (the cost line after calls=). The reader keeps
// name compression ("fn=(12) main", then "fn=(12)"), with one table for
// object names (ob=, cob=), one for file names (fl=, fi=, fe=, cfi=, cfl=)
// and one for function names (fn=, cfn=); subposition compression ("+3",
// "-1", "*") and hexadecimal numbers; cost lines with fewer counters than
// events (the rest are zero). Jumps (jump=, jcnd=) and unknown NAME=VALUE
// lines are skipped. A function is its object, its file (the one in
// effect at its fn= line) and its name; callgrind's recursion contexts
// ("fib'2", the calls of fib two or more levels deep) keep their
// function's name, "fib". The code of another source file inlined into a
// function (the cost lines and calls after fi= or fe=) is counted apart,
// as callgrind_annotate counts it (as the function "FILE:fn"): it is the
// frame "fn [inlined from FILE]" below the function, reached without a
// call. The file in effect also names a callee's file when no cfi= does.
//
// The profile it makes is a call tree unrolled from the graph (unroll.go
// says how and why it is built that way); its value types are the events,
// then "calls": on the sample of each call path, how many times that path
// was entered, which is where the Profiling Blueprint takes its call counts
// (blueprint.CallCounts). The file has no times, so the profile is untimed.
package callgrind

import (
	"bytes"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

// Calls is the value type that holds, on the sample of each call path, the
// number of times the path was entered.
var Calls = analysis.ValueType{Type: "calls", Unit: "count"}

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "callgrind", Priority: 30, Sniff: sniff, Parse: parse})
}

// sniff accepts text that starts with "# callgrind format", or whose first
// lines are "key: value" header lines up to an "events:" line.
func sniff(head []byte) bool {
	if !text.Is(head) {
		return false
	}
	if bytes.HasPrefix(head, []byte("# callgrind format")) {
		return true
	}
	r := text.NewReader(nil, head)
	for r.Next() {
		l := bytes.TrimSpace(r.Line)
		switch {
		case len(l) == 0 || l[0] == '#':
		case bytes.HasPrefix(l, []byte("events:")):
			return true
		case !isHeader(l):
			return false
		}
	}
	return false
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	g, err := read(in)
	if err != nil {
		return nil, err
	}
	return unroll(in, g), nil
}
