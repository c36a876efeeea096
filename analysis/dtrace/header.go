package dtrace

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

// The header is every line before the first blank one: usually dtrace's
// column names and the probe that ended the run (":tick-60s"), but also
// dtrace's "description ... matched N probes" when its standard error was
// kept, lines a user added, or nothing at all (dtrace -q, or a file that
// starts with the stacks). A line of dtrace's own among the stacks ("dtrace:
// 12 drops on CPU 0") is skipped.

var dtraceHeader = regexp.MustCompile(`^CPU\s+ID\s+FUNCTION:NAME\s*\n`)

// sniff takes the usual header, or lines up to a blank one followed by
// frame lines ("module`function", or a bare hex address) and a count.
func sniff(head []byte) bool {
	if dtraceHeader.Match(head) {
		return true
	}
	lines := strings.Split(string(head), "\n")
	if len(head) == 4096 {
		lines = lines[:len(lines)-1] // the last line may be cut
	}
	if len(lines) == 0 {
		return false
	}
	i := 0
	if !isFrame(strings.TrimSpace(lines[0])) {
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			i++
		}
	}
	frames := false
	for _, l := range lines[i:] {
		switch t := strings.TrimSpace(l); {
		case t == "" || isMessage(t):
		case text.Digits(t):
			return frames
		case isFrame(t):
			frames = true
		default:
			return false
		}
	}
	return frames && len(head) == 4096
}

// isFrame reports whether a trimmed line looks like a frame of stack() or
// ustack(): "module`function+0x1c" or a bare address "0x104d08831".
func isFrame(line string) bool {
	if strings.Contains(line, "`") {
		return true
	}
	hex, ok := strings.CutPrefix(line, "0x")
	return ok && hex != "" && strings.Trim(hex, "0123456789abcdefABCDEF") == ""
}

// isMessage reports whether a trimmed line is one of dtrace's own.
func isMessage(line string) bool { return strings.HasPrefix(line, "dtrace: ") }

// skipHeader reads the header, returning an error when no blank line ends
// it. A file whose first line is a frame has no header.
func skipHeader(name string, r *text.Reader) error {
	first, _, ok := r.Peek()
	if !ok || isFrame(string(bytes.TrimSpace(first))) {
		return nil
	}
	for r.Next() {
		if len(bytes.TrimSpace(r.Line)) == 0 {
			return nil
		}
	}
	return analysis.LineError(name, r.N, "expected a blank line after the DTrace header (%d lines), then the stacks", r.N)
}
