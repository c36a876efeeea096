// Package cachegrind reads valgrind's cachegrind_out files: per source file
// (fl=) and function (fn=), the cost of each line for each event of the
// "events:" line (instructions, cache reads and misses, branches), and a
// "summary:" of the whole run. A cachegrind file has no calls and no
// stacks: the profile is flat, one sample per function of a file (its
// costs summed over its lines), whose stack is the function alone. A
// function whose code comes from several files (inlined code) is one frame
// per file, as cg_annotate counts it ("file:function"). Its value types are
// the events; it is untimed.
//
// The summary is checked against the sum of the cost lines; a summary that
// wrapped below zero (written as an unsigned number past 2^63) is read as
// the negative number it stands for, as cg_annotate does, with a warning.
package cachegrind

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "cachegrind", Priority: 29, Sniff: sniff, Parse: parse})
}

// sniff accepts text whose header, up to its first fl= line, has only
// cachegrind's keys (desc:, cmd:, events:) and an events: line; callgrind
// files have others (version:, creator:, positions:) or start with
// "# callgrind format".
func sniff(head []byte) bool {
	if !text.Is(head) || bytes.HasPrefix(head, []byte("# callgrind")) {
		return false
	}
	events := false
	r := text.NewReader(nil, head)
	for r.Next() {
		l := bytes.TrimSpace(r.Line)
		key, _, _ := bytes.Cut(l, []byte(":"))
		switch {
		case len(l) == 0:
		case bytes.HasPrefix(l, []byte("fl=")):
			return events
		case string(key) == "events":
			events = true
		case string(key) != "desc" && string(key) != "cmd":
			return false
		}
	}
	return false
}

// fnKey is a function of a source file.
type fnKey struct{ fl, fn string }

// reader is the state of the line-by-line read.
type reader struct {
	name    string
	events  []string
	fl      string
	fn      int // index into costs of the current function, -1 before fn=
	keys    []fnKey
	byKey   map[fnKey]int
	costs   [][]int64
	summary []int64
	wrapped bool
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	r := &reader{name: in.Name, fn: -1, byKey: map[fnKey]int{}}
	lr := text.NewReader(in.Context(), in.Data)
	for lr.Next() {
		if err := r.line(bytes.TrimSpace(lr.Line), lr.N); err != nil {
			return nil, err
		}
	}
	if r.events == nil {
		return nil, analysis.LineError(in.Name, lr.N+1, "expected an \"events:\" line (is this a cachegrind file?)")
	}
	if len(r.keys) == 0 {
		return nil, analysis.LineError(in.Name, lr.N+1, "expected at least one function (fn=) with its costs")
	}
	return r.profile(in), nil
}

// line reads one line, trimmed.
func (r *reader) line(l []byte, n int) error {
	switch {
	case len(l) == 0 || l[0] == '#':
		return nil
	case l[0] >= '0' && l[0] <= '9':
		return r.costLine(l, n)
	case bytes.HasPrefix(l, []byte("fl=")):
		r.fl, r.fn = string(l[3:]), -1
		return nil
	case bytes.HasPrefix(l, []byte("fn=")):
		if r.events == nil {
			return analysis.LineError(r.name, n, "expected an \"events:\" line before fn=")
		}
		r.function(fnKey{r.fl, string(l[3:])})
		return nil
	}
	key, value, ok := bytes.Cut(l, []byte(":"))
	if !ok {
		return analysis.LineError(r.name, n, "expected a cost line (LINE COSTS...), fl=, fn= or a \"key: value\" line, got %q", text.Clip(string(l)))
	}
	return r.header(string(key), bytes.TrimSpace(value), n)
}

// header reads a "key: value" line; desc: and cmd: only describe the run.
func (r *reader) header(key string, value []byte, n int) error {
	switch key {
	case "events":
		if r.events != nil {
			return analysis.LineError(r.name, n, "expected one \"events:\" line, found a second")
		}
		for _, e := range bytes.Fields(value) {
			r.events = append(r.events, string(e))
		}
		if len(r.events) == 0 {
			return analysis.LineError(r.name, n, "expected event names after \"events:\"")
		}
	case "summary":
		if r.events == nil {
			return analysis.LineError(r.name, n, "expected an \"events:\" line before the summary")
		}
		costs, err := r.parseCosts(bytes.Fields(value), true)
		if err != nil {
			return analysis.LineError(r.name, n, "summary: %v", err)
		}
		r.summary = costs
	}
	return nil
}

// function makes k the current function, adding it when new.
func (r *reader) function(k fnKey) {
	i, ok := r.byKey[k]
	if !ok {
		i = len(r.keys)
		r.keys = append(r.keys, k)
		r.costs = append(r.costs, make([]int64, len(r.events)))
		r.byKey[k] = i
	}
	r.fn = i
}

// costLine reads "LINE COST...": the line's costs go to the function.
func (r *reader) costLine(l []byte, n int) error {
	if r.fn < 0 {
		return analysis.LineError(r.name, n, "expected fn= before the first cost line")
	}
	f := bytes.Fields(l)
	if !text.Digits(f[0]) {
		return analysis.LineError(r.name, n, "expected a line number, got %q", text.Clip(string(f[0])))
	}
	costs, err := r.parseCosts(f[1:], false)
	if err != nil {
		return analysis.LineError(r.name, n, "%v", err)
	}
	for i, c := range costs {
		r.costs[r.fn][i] += c
	}
	return nil
}

// parseCosts reads up to one counter per event; the missing ones are 0. A
// summary's counter past 2^63 is read as the negative number it wrapped to.
func (r *reader) parseCosts(f [][]byte, summary bool) ([]int64, error) {
	if len(f) > len(r.events) {
		return nil, fmt.Errorf("expected at most %d costs (events: %v), got %d", len(r.events), r.events, len(f))
	}
	costs := make([]int64, len(r.events))
	for i, s := range f {
		c, err := strconv.ParseInt(string(s), 10, 64)
		if u, uerr := strconv.ParseUint(string(s), 10, 64); err != nil && summary && uerr == nil {
			c, err, r.wrapped = int64(u), nil, true
		}
		if err != nil {
			return nil, fmt.Errorf("expected a count for %s, got %q", r.events[i], text.Clip(string(s)))
		}
		costs[i] = c
	}
	return costs, nil
}

// profile makes the flat profile: one sample per function of a file.
func (r *reader) profile(in *analysis.Input) *analysis.Profile {
	types := make([]analysis.ValueType, len(r.events))
	for i, e := range r.events {
		types[i] = analysis.ValueType{Type: e, Unit: "count"}
	}
	b := in.NewBuilder(types...)
	total := make([]int64, len(r.events))
	for i, k := range r.keys {
		file := k.fl
		if file == "???" {
			file = ""
		}
		fr := b.Frame(analysis.Frame{Name: k.fn, File: file})
		b.Add(b.Stack([]int32{fr}), r.costs[i], 0, false, "", nil)
		for e, c := range r.costs[i] {
			total[e] += c
		}
	}
	if r.wrapped {
		b.Warn("the summary line has counts past 2^63: they wrapped below zero when written, and are read as the negative numbers they stand for")
	}
	for e := range r.summary {
		if r.summary[e] != total[e] {
			b.Warn(fmt.Sprintf("the summary gives %d %s, the cost lines %d", r.summary[e], r.events[e], total[e]))
		}
	}
	b.Note("cachegrind counts costs per function and line, not calls: the profile is flat, each function a root of its own")
	return b.Finish()
}
