// Package folded reads and writes folded stacks, the FlameGraph convention: one line per stack, frames root
// first separated by ';', then a space and a count ("main;run;work 12").
// A second count column (FlameGraph's differential "before after" form) is
// read as a second value type. Identical stacks on several lines add up.
// Frame names keep stackcollapse's annotations ("_[k]", "_[j]"). Lines
// starting with '#' or "//" are comments. Any other line without a count is
// an error (speedscope and flamegraph.pl skip such lines, which would hide a
// truncated or damaged file).
package folded

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "folded", Priority: 90, Sniff: sniff, Parse: parse})
}

// sniffFolded accepts text whose first stack line is a folded stack that
// has a ';', or is followed by another folded stack line ("version: 1" then
// "creator: …" is a callgrind file, not two one-frame stacks).
func sniff(head []byte) bool {
	if !text.Is(head) {
		return false
	}
	r := text.NewReader(nil, head)
	first := true
	for r.Next() {
		l := bytes.TrimSpace(r.Line)
		if len(l) == 0 || l[0] == '#' || bytes.HasPrefix(l, []byte("//")) {
			continue
		}
		if !r.Ended && len(head) == 4096 { // a line cut by the head's end
			return !first || (bytes.IndexByte(l, ';') > 0 && l[0] != '{' && l[0] != '[')
		}
		if _, counts := splitFolded(l); counts == 0 {
			return false
		}
		if !first || bytes.IndexByte(l, ';') >= 0 {
			return true
		}
		first = false
	}
	return !first
}

// splitFolded returns the stack part of a folded line and how many count
// columns (1 or 2) end it; 0 when the line does not end with a count.
func splitFolded(line []byte) ([]byte, int) {
	stack, n := line, 0
	for n < 2 {
		i := bytes.LastIndexAny(stack, " \t")
		if i < 0 || !text.Digits(stack[i+1:]) {
			break
		}
		stack, n = bytes.TrimRight(stack[:i], " \t"), n+1
	}
	if len(stack) == 0 {
		return nil, 0
	}
	return stack, n
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name, data := in.Name, in.Data
	r := text.NewReader(in.Context(), data)
	var b *analysis.Builder
	cols := 0
	var stack []int32
	for r.Next() {
		raw := bytes.TrimSpace(r.Line)
		if len(raw) == 0 || raw[0] == '#' || bytes.HasPrefix(raw, []byte("//")) {
			continue // blank lines and comments
		}
		frames, n := splitFolded(raw)
		if n == 0 {
			return nil, analysis.LineError(name, r.N, "expected \"frame;frame;... COUNT\" (folded stacks), got %q", text.Clip(string(raw[:min(len(raw), 61)])))
		}
		if b == nil {
			cols = n
			b = in.NewBuilder(foldedTypes(n)...)
		}
		// The depth is checked before the line is copied: it could be most
		// of the file.
		if stack = stack[:0]; !b.CheckDepth(bytes.Count(frames, []byte{';'}) + 1) {
			return nil, b.Err()
		}
		line := string(raw)
		values, err := foldedCounts(line[len(frames):], cols)
		if err != nil {
			return nil, analysis.LineError(name, r.N, "%v", err)
		}
		for f := range strings.SplitSeq(line[:len(frames)], ";") {
			stack = append(stack, b.Frame(analysis.Frame{Name: f}))
		}
		if b.Add(b.Stack(stack), values, 0, false, "", nil); b.Err() != nil {
			return nil, b.Err()
		}
	}
	if b == nil {
		return nil, analysis.LineError(name, r.N+1, "expected at least one folded stack line, found none")
	}
	return b.Finish(), nil
}

func foldedTypes(n int) []analysis.ValueType {
	if n == 1 {
		return []analysis.ValueType{{Type: "samples", Unit: "count"}}
	}
	return []analysis.ValueType{{Type: "samples", Unit: "count"}, {Type: "samples2", Unit: "count"}}
}

// foldedCounts parses the last cols fields of counts, the count columns
// that end a line, as counts.
func foldedCounts(counts string, cols int) ([]int64, error) {
	f := strings.Fields(counts)
	if len(f) < cols {
		return nil, fmt.Errorf("expected %d count column(s) like the first line, got %d", cols, len(f))
	}
	out := make([]int64, cols)
	for i, s := range f[len(f)-cols:] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("expected %d integer count column(s) like the first line, got %q", cols, text.Clip(s))
		}
		out[i] = v
	}
	return out, nil
}

// Write writes value v of p as folded stacks: one line per distinct
// stack of frame names, "root;...;leaf N", sorted bytewise like
// stackcollapse's output, stacks whose value is zero left out.
func Write(w io.Writer, p *analysis.Profile, v int) error {
	if v < 0 || v >= len(p.ValueTypes) {
		return fmt.Errorf("write folded: no value type %d", v)
	}
	perStack := make([]int64, p.Stacks.Len())
	for i := range p.Samples {
		perStack[p.Samples[i].Stack] += p.Value(&p.Samples[i], v)
	}
	sums := make(map[string]int64)
	var sb strings.Builder
	for s, st := range p.Stacks.All() {
		if perStack[s] == 0 || len(st) == 0 {
			continue
		}
		sb.Reset()
		for i, f := range st {
			if i > 0 {
				sb.WriteByte(';')
			}
			sb.WriteString(p.Frames[f].Name)
		}
		sums[sb.String()] += perStack[s]
	}
	keys := make([]string, 0, len(sums))
	for k, n := range sums {
		if n != 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	bw := bufio.NewWriter(w)
	for _, k := range keys {
		bw.WriteString(k)
		bw.WriteByte(' ')
		bw.WriteString(strconv.FormatInt(sums[k], 10))
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write folded: %w", err)
	}
	return nil
}
