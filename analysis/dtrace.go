package analysis

import (
	"regexp"
	"strconv"
	"strings"
)

// DTrace stack aggregations (`dtrace -n 'profile-997 { @[stack()] = count(); }'`):
// after the three header lines, each stack is a block of frames, leaf first,
// ending with its count. Frames are tidied as FlameGraph's stackcollapse.pl
// (commit 41fee1f) tidies them, so WriteFolded equals that script's output:
// "+offset" is cut, C++ arguments are dropped, "a->b" inline chains become
// frames ("_[i]" on the inlined ones), ';' becomes ':' and a leading 'L'
// (Java) is dropped.

func init() {
	RegisterFormat(Format{Name: "dtrace", Priority: 45, Sniff: sniffDTrace, Parse: parseDTrace})
}

var dtraceHeader = regexp.MustCompile(`^CPU\s+ID\s+FUNCTION:NAME\s*\n`)

func sniffDTrace(head []byte) bool { return dtraceHeader.Match(head) }

func parseDTrace(name string, data []byte) (*Profile, error) {
	b := NewBuilder("dtrace", ValueType{Type: "samples", Unit: "count"})
	r := newLineReader(data)
	var stack []int32 // leaf first
	for r.next() {
		if r.n <= 3 {
			continue // the header: column names, the probe, a blank line
		}
		line := strings.TrimSpace(string(r.line))
		switch {
		case line == "":
			continue
		case isDigits(line):
			n, err := strconv.ParseInt(line, 10, 64)
			if err != nil {
				return nil, lineError(name, r.n, "expected a sample count, got %q", clip(line))
			}
			reverse(stack)
			b.Add(b.Stack(stack), []int64{n}, 0, false, "", nil)
			stack = stack[:0]
		default:
			parts := dtraceFrames(line)
			for i := len(parts) - 1; i >= 0; i-- {
				stack = append(stack, b.Frame(Frame{Name: parts[i]}))
			}
		}
	}
	if len(stack) > 0 {
		return nil, lineError(name, r.n, "expected the count of the last stack before the end of the file (truncated?)")
	}
	if len(b.Profile().Samples) == 0 {
		return nil, lineError(name, r.n+1, "expected at least one stack and count after the DTrace header")
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
