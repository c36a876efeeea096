// Package austin reads the output of Austin, the frame stack sampler for
// CPython (https://github.com/P403n1x87/austin): one sample per line,
// "P<pid>;T<tid>;frame;frame;... metric", the frames root first, after
// "# key: value" metadata lines (austin, mode, interval, duration). The
// process and the thread are the sample's thread (ids, to filter by with
// process= and thread=), not frames. A frame is "file:function:line", or in
// the alternative format (-a) "file:function" followed by a pseudo-frame
// "L<line>"; it is named as py-spy names Python frames, "function
// (file:line)". Austin's ":GC:" marker (-g, the garbage collector running)
// is a frame of its own.
//
// The metric depends on the mode: microseconds of wall time (the default)
// or of CPU time (-s, "mode: cpu"), bytes of memory allocated (-m, a delta
// that can be negative), or in full mode (-f) "time,idle,memory": the time,
// 1 when the thread was idle, and the memory delta, which become the value
// types wall, cpu (the time of samples that were not idle), alloc and free
// (a memory delta is an allocation when positive, a release when
// negative).
// Samples keep the file's order, but have no times: the profile is
// untimed.
package austin

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "austin", Priority: 35, Sniff: sniff, Parse: parse})
}

// sniff accepts text whose first line that is not metadata starts with
// "P<pid>;T".
func sniff(head []byte) bool {
	if !text.Is(head) {
		return false
	}
	r := text.NewReader(nil, head)
	for r.Next() {
		l := bytes.TrimSpace(r.Line)
		switch {
		case len(l) == 0 || l[0] == '#':
		default:
			_, ok := processThread(string(l))
			return ok
		}
	}
	return false
}

// modes gives, per mode, the value types and how a line's metrics fill
// them (a function of the metrics as written).
var modes = map[string][]analysis.ValueType{
	"wall":   {{Type: "wall", Unit: "nanoseconds"}},
	"cpu":    {{Type: "cpu", Unit: "nanoseconds"}},
	"memory": {{Type: "alloc", Unit: "bytes"}, {Type: "free", Unit: "bytes"}},
	"full":   {{Type: "wall", Unit: "nanoseconds"}, {Type: "cpu", Unit: "nanoseconds"}, {Type: "alloc", Unit: "bytes"}, {Type: "free", Unit: "bytes"}},
}

type reader struct {
	name   string
	meta   map[string]string
	b      *analysis.Builder
	mode   string
	frames map[string]int32
	stack  []int32
	values []int64
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	r := &reader{name: in.Name, meta: map[string]string{}, frames: map[string]int32{}}
	lr := text.NewReader(in.Context(), in.Data)
	for lr.Next() {
		l := strings.TrimSpace(string(lr.Line))
		switch {
		case l == "":
		case l[0] == '#':
			if k, v, ok := strings.Cut(strings.TrimSpace(l[1:]), ":"); ok && r.b == nil {
				r.meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		default:
			if err := r.sample(in, l, lr.N); err != nil {
				return nil, err
			}
		}
	}
	if r.b == nil {
		return nil, analysis.LineError(in.Name, lr.N+1, "expected at least one sample \"P<pid>;T<tid>;frame;... metric\", found none")
	}
	if v := r.meta["austin"]; v != "" {
		r.b.Note(fmt.Sprintf("recorded by Austin %s in %s mode, every %s µs", v, r.mode, r.meta["interval"]))
	}
	return r.b.Finish(), nil
}

// builder starts the profile on the first sample, in the mode the
// metadata names (else from the metrics' count: three in full mode, one
// in wall mode).
func (r *reader) builder(in *analysis.Input, metrics int) *analysis.Builder {
	if r.b == nil {
		r.mode = r.meta["mode"]
		if _, ok := modes[r.mode]; !ok {
			r.mode = map[bool]string{true: "full", false: "wall"}[metrics == 3]
		}
		r.b = in.NewBuilder(modes[r.mode]...)
		r.b.Profile().Lang = analysis.LangPython
		r.values = make([]int64, len(modes[r.mode]))
	}
	return r.b
}

// processThread splits "P<pid>;T<tid>;rest" into the thread and the rest.
func processThread(l string) (analysis.Thread, bool) {
	p, rest, ok := strings.Cut(l, ";")
	t, _, _ := strings.Cut(rest, ";")
	t, _, _ = strings.Cut(t, " ")
	if !ok || len(p) < 2 || p[0] != 'P' || !text.Digits(p[1:]) || len(t) < 2 || t[0] != 'T' {
		return analysis.Thread{}, false
	}
	tid := t[1:]
	return analysis.Thread{Name: "process " + p[1:] + ", thread " + tid, ID: tid, PID: p[1:]}, true
}

// sample reads one sample line.
func (r *reader) sample(in *analysis.Input, l string, n int) error {
	th, ok := processThread(l)
	sp := strings.LastIndexByte(l, ' ')
	if !ok || sp < 0 {
		return analysis.LineError(r.name, n, "expected a sample \"P<pid>;T<tid>;frame;... metric\", got %q", text.Clip(l))
	}
	metrics := strings.Split(l[sp+1:], ",")
	b := r.builder(in, len(metrics))
	if err := r.fill(metrics); err != nil {
		return analysis.LineError(r.name, n, "%v", err)
	}
	_, rest, _ := strings.Cut(l[:sp], ";")
	_, rest, _ = strings.Cut(rest, ";")
	r.stack = r.stack[:0]
	parts := strings.Split(rest, ";")
	for i := 0; i < len(parts); i++ {
		line := ""
		if i+1 < len(parts) && lineOf(parts[i+1]) != "" { // the alternative format: "file:function;L<line>"
			line = lineOf(parts[i+1])
		}
		if err := r.frame(parts[i], line); err != nil {
			return analysis.LineError(r.name, n, "%v", err)
		}
		if line != "" {
			i++
		}
	}
	b.DescribeThread(th)
	b.Add(b.Stack(r.stack), r.values, 0, false, th.Name, nil)
	return nil
}

// fill reads a line's metrics into r.values.
func (r *reader) fill(metrics []string) error {
	want := map[bool]int{true: 3, false: 1}[r.mode == "full"]
	if len(metrics) != want {
		return fmt.Errorf("expected %d metric(s) in %s mode, got %q", want, r.mode, strings.Join(metrics, ","))
	}
	var x [3]int64
	for i, m := range metrics {
		v, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			return fmt.Errorf("expected an integer metric, got %q", text.Clip(m))
		}
		x[i] = v
	}
	switch r.mode {
	case "full": // time (µs), idle (0 or 1), memory delta
		r.values[0], r.values[1] = x[0]*1000, x[0]*1000*(1-min(max(x[1], 0), 1))
		r.values[2], r.values[3] = max(x[2], 0), max(-x[2], 0)
	case "memory":
		r.values[0], r.values[1] = max(x[0], 0), max(-x[0], 0)
	default:
		r.values[0] = x[0] * 1000
	}
	return nil
}

// lineOf returns the line of an "L<line>" pseudo-frame, "" for others.
func lineOf(f string) string {
	if len(f) > 1 && f[0] == 'L' && text.Digits(f[1:]) {
		return f[1:]
	}
	return ""
}

// frame adds one frame to the stack: "file:function:line", or in the
// alternative format "file:function" whose line the next pseudo-frame
// gave (at).
func (r *reader) frame(f, at string) error {
	switch {
	case f == "":
		return nil
	case lineOf(f) != "":
		return fmt.Errorf("expected a frame \"file:function\" before %s", f)
	}
	fr := analysis.Frame{Name: f}
	if f != ":GC:" {
		file, fn, line := splitFrame(f)
		if at != "" {
			line = at
		}
		fr = analysis.Frame{Name: fn + " (" + file + ")", File: file}
		switch {
		case file == "":
			fr.Name = fn
		case line != "":
			fr.Name = fn + " (" + file + ":" + line + ")"
			fr.Line, _ = strconv.ParseInt(line, 10, 64)
		}
	}
	r.stack = append(r.stack, r.b.Frame(fr))
	return nil
}

// splitFrame splits "file:function:line" (the file may hold colons, as
// Windows paths do) into its parts; line is "" when the frame has none.
func splitFrame(f string) (file, fn, line string) {
	if i := strings.LastIndexByte(f, ':'); i >= 0 && text.Digits(f[i+1:]) && f[i+1:] != "" {
		f, line = f[:i], f[i+1:]
	}
	if i := strings.LastIndexByte(f, ':'); i >= 0 {
		return f[:i], f[i+1:], line
	}
	return "", f, line
}
