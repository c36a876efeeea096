// Package macsample reads the reports of macOS's sample tool
// (/usr/bin/sample, also Activity Monitor's "Sample Process"): after a
// header ("Analysis of sampling NAME (pid N) every 1 millisecond",
// "Date/Time: ..."), the "Call graph:" is a tree, one node a line, drawn
// with indentation and the markers "+ ! : |": a thread line
// ("2757 Thread_1166804   DispatchQueue_1: com.apple.main-thread  (serial)")
// and under it frame lines ("2757 main  (in testDemo) + 910  [0x1000017be]
// main.cpp:353"), each with the number of samples in which it was on the
// stack. A line's depth is the column of its count.
//
// Each node whose count exceeds the sum of its callees' becomes one sample
// of that difference (its self count), with its thread; the value type is
// samples/count, the profile is untimed, and the period is the sampling
// interval. A frame is named by its symbol, with the binary image ("in
// libsystem_kernel.dylib") as its file; offsets, addresses and source
// lines are dropped, so that every call site of a function is one frame.
// The report's later sections ("Total number in stack", "Sort by top of
// stack", "Binary Images") are skipped.
package macsample

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "macsample", Priority: 30, Sniff: sniff, Parse: parse})
}

func sniff(head []byte) bool {
	return bytes.Contains(head, []byte("Analysis of sampling ")) ||
		bytes.Contains(head, []byte("\nCall graph:\n")) && bytes.Contains(head, []byte("  (in "))
}

// node is a line of the call graph on the path from its thread to the line
// being read.
type node struct {
	col      int
	frame    int32 // -1 for a thread
	count    int64
	children int64 // the sum of its callees' counts
	line     int
}

type reader struct {
	name   string
	r      *text.Reader
	b      *analysis.Builder
	path   []node
	thread string
	frames []int32
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	rd := &reader{name: in.Name, r: text.NewReader(in.Context(), in.Data), b: in.NewBuilder(analysis.ValueType{Type: "samples", Unit: "count"})}
	if err := rd.header(); err != nil {
		return nil, err
	}
	if err := rd.graph(); err != nil {
		return nil, err
	}
	if len(rd.b.Profile().Samples) == 0 {
		return nil, analysis.LineError(in.Name, rd.r.N, "expected a call graph with samples")
	}
	return rd.b.Finish(), nil
}

// header reads up to "Call graph:", taking the interval and the date.
func (rd *reader) header() error {
	p := rd.b.Profile()
	for rd.r.Next() {
		s := strings.TrimSpace(string(rd.r.Line))
		switch {
		case s == "Call graph:":
			return nil
		case strings.HasPrefix(s, "Analysis of sampling "):
			if i := strings.LastIndex(s, " every "); i >= 0 {
				p.Period, p.PeriodType = interval(s[i+len(" every "):]), analysis.ValueType{Type: "wall", Unit: "nanoseconds"}
			}
		case strings.HasPrefix(s, "Date/Time:"):
			p.Start, _ = time.Parse("2006-01-02 15:04:05.999 -0700", strings.TrimSpace(strings.TrimPrefix(s, "Date/Time:")))
		}
	}
	return analysis.LineError(rd.name, rd.r.N, "expected a \"Call graph:\" line (the report of macOS's sample tool)")
}

// interval reads "1 millisecond" or "10 milliseconds" as nanoseconds.
func interval(s string) int64 {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || n < 0 || n > 1e6 {
		return 0
	}
	switch strings.TrimSuffix(f[1], "s") {
	case "microsecond":
		return n * 1e3
	case "millisecond":
		return n * 1e6
	case "second":
		return n * 1e9
	}
	return 0
}

// graph reads the call graph's lines up to its end (a blank line or the
// next section).
func (rd *reader) graph() error {
	for rd.r.Next() {
		line := string(rd.r.Line)
		if strings.TrimSpace(line) == "" && len(rd.path) > 0 || strings.HasPrefix(strings.TrimSpace(line), "Total number in stack") {
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := rd.line(line); err != nil {
			return err
		}
	}
	return rd.pop(0)
}

// line reads one node: "<markers> <count> <description>".
func (rd *reader) line(line string) error {
	col := len(line) - len(strings.TrimLeft(line, " +!:|"))
	rest := line[col:]
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	count, err := strconv.ParseInt(rest[:digits], 10, 64)
	if err != nil || count > 1<<50 || digits == len(rest) || rest[digits] != ' ' {
		return analysis.LineError(rd.name, rd.r.N, "expected \"COUNT NAME\" after the tree's markers, got %q", text.Clip(strings.TrimSpace(line)))
	}
	desc := strings.TrimSpace(rest[digits:])
	if err := rd.pop(col); err != nil {
		return err
	}
	n := node{col: col, frame: -1, count: count, line: rd.r.N}
	if len(rd.path) == 0 {
		rd.thread = strings.Join(strings.Fields(desc), " ")
	} else {
		n.frame = rd.b.Frame(frame(desc))
		if parent := &rd.path[len(rd.path)-1]; count > parent.count {
			return analysis.LineError(rd.name, rd.r.N, "expected a count of at most its caller's %d (line %d), got %d", parent.count, parent.line, count)
		}
	}
	rd.path = append(rd.path, n)
	return nil
}

// pop closes the nodes at col or deeper, adding a sample for each one's
// own count.
func (rd *reader) pop(col int) error {
	for len(rd.path) > 0 && rd.path[len(rd.path)-1].col >= col {
		n := rd.path[len(rd.path)-1]
		self := n.count - n.children
		if self < 0 {
			return analysis.LineError(rd.name, n.line, "expected its callees' counts to add up to at most its own %d, they add up to %d", n.count, n.children)
		}
		if self > 0 {
			rd.sample(self)
		}
		rd.path = rd.path[:len(rd.path)-1]
		if len(rd.path) > 0 {
			rd.path[len(rd.path)-1].children += n.count
		}
	}
	return nil
}

// sample adds a sample of the open path, its last node the leaf.
func (rd *reader) sample(self int64) {
	rd.frames = rd.frames[:0]
	for _, n := range rd.path {
		if n.frame >= 0 {
			rd.frames = append(rd.frames, n.frame)
		}
	}
	rd.b.Add(rd.b.Stack(rd.frames), []int64{self}, 0, false, rd.thread, nil)
}

// frame reads "symbol  (in image) + offset  [address]  file:line".
func frame(desc string) analysis.Frame {
	name, rest, ok := strings.Cut(desc, "  (in ")
	if !ok {
		name, _, _ = strings.Cut(desc, "  ")
		return analysis.Frame{Name: name}
	}
	image, _, _ := strings.Cut(rest, ")")
	if name == "???" {
		name = "??? (in " + image + ")" // unknown symbols of different images stay apart
	}
	return analysis.Frame{Name: name, File: image}
}
