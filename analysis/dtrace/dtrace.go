// Package dtrace reads DTrace stack aggregations (`dtrace -n 'profile-997 { @[stack()] = count(); }'`):
// after the header (see header.go), each stack is a block of frames, leaf first,
// ending with its count. Frames are tidied as FlameGraph's stackcollapse.pl
// (commit 41fee1f) tidies them, so folded.Write equals that script's output:
// "+offset" is cut, C++ arguments are dropped, "a->b" inline chains become
// frames ("_[i]" on the inlined ones), ';' becomes ':' and a leading 'L'
// (Java) is dropped.
package dtrace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "dtrace", Priority: 45, Sniff: sniff, Parse: parse})
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name, data := in.Name, in.Data
	b := in.NewBuilder(analysis.ValueType{Type: "samples", Unit: "count"})
	r := text.NewReader(in.Context(), data)
	if err := skipHeader(name, r); err != nil {
		return nil, err
	}
	var stack []int32 // leaf first
	messages := 0
	for r.Next() {
		line := strings.TrimSpace(string(r.Line))
		switch {
		case line == "":
			continue
		case isMessage(line):
			messages++
		case text.Digits(line):
			n, err := strconv.ParseInt(line, 10, 64)
			if err != nil {
				return nil, analysis.LineError(name, r.N, "expected a sample count, got %q", text.Clip(line))
			}
			slices.Reverse(stack)
			b.Add(b.Stack(stack), []int64{n}, 0, false, "", nil)
			stack = stack[:0]
		default:
			parts := dtraceFrames(line)
			for i := len(parts) - 1; i >= 0; i-- {
				stack = append(stack, b.Frame(analysis.Frame{Name: parts[i]}))
			}
		}
	}
	if len(stack) > 0 {
		return nil, analysis.LineError(name, r.N, "expected the count of the last stack before the end of the file (truncated?)")
	}
	if len(b.Profile().Samples) == 0 {
		return nil, analysis.LineError(name, r.N+1, "expected at least one stack and count after the DTrace header")
	}
	if messages > 0 {
		b.Warn(strconv.Itoa(messages) + " lines of dtrace's own messages (\"dtrace: ...\") among the stacks were skipped")
	}
	return b.Finish(), nil
}

// dtraceFrames tidies one frame line into frames, caller first.
func dtraceFrames(f string) []string {
	if i := strings.LastIndexByte(f, '+'); i >= 0 {
		f = f[:i]
	}
	if i := strings.Index(f, "::"); i >= 0 {
		if k := strings.LastIndexAny(f, "(<"); k >= i+2 {
			f = f[:k]
		}
	}
	if f == "" {
		f = "-"
	}
	parts := strings.Split(f, "->")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for i, p := range parts {
		p = strings.TrimPrefix(strings.ReplaceAll(p, ";", ":"), "L")
		if i > 0 {
			p += "_[i]"
		}
		parts[i] = p
	}
	return parts
}
