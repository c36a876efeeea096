package callgrind

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

// graph is what a callgrind file says: functions with their self costs,
// and the calls between them.
type graph struct {
	events  []string
	thread  string
	funcs   []function // in the order the file first names them
	edges   []edge     // in the order the file first gives them
	totals  []int64    // the "totals:" (or "summary:") line, nil when absent
	wrapped bool       // the totals passed 2^63 (wrappedCosts)

	byKey  map[fnKey]int32
	byEdge map[[2]int32]int32
}

// fnKey identifies a function as callgrind_annotate does: by its file
// (the source file in effect at its fn= line) and its name, and by its
// object too; in is "" for the function, and for the code of another
// source file inlined into it (fi=, fe=), that file.
type fnKey struct{ ob, fl, name, in string }

type function struct {
	key   fnKey
	frame analysis.Frame
	self  []int64 // per event
	out   []int32 // its edges, in file order
	host  int32   // for inlined code, the function it is part of; -1 otherwise
}

// edge is every call from one function to another: how many, and their
// inclusive cost per event. An inline edge leads from a function to the
// code inlined into it: no call, and the inclusive cost of that code.
type edge struct {
	from, to int32
	calls    int64
	cost     []int64
	inline   bool
}

// The name tables of name compression: one per kind of name.
const (
	obNames = iota
	flNames
	fnNames
)

// reader is the state of the line-by-line read.
type reader struct {
	file      string
	g         *graph
	names     [3]map[string]string // per kind: compressed id → name
	positions int                  // subpositions that start a cost line
	ob, fl    string               // the current object and function file
	pos       string               // the file of the current source position (fl=, fi=, fe=)
	fn        int32                // the current function, -1 before fn=
	home      string               // the file in effect at the current function's fn=
	cur       int32                // where costs and calls go: fn, or the code inlined into it from pos
	cob, cfi  string               // the next callee's object and file, "" when not given
	callee    int32                // the function of the last cfn=, -1 before one
	calls     int64                // the count of a calls= line waiting for its cost line, -1 when none
	callLine  int
	costs     []int64
}

func read(in *analysis.Input) (*graph, error) {
	g := &graph{byKey: map[fnKey]int32{}, byEdge: map[[2]int32]int32{}}
	r := &reader{file: in.Name, g: g, positions: 1, fn: -1, cur: -1, callee: -1, calls: -1}
	for i := range r.names {
		r.names[i] = map[string]string{}
	}
	lr := text.NewReader(in.Context(), in.Data)
	for lr.Next() {
		if err := r.line(bytes.TrimSpace(lr.Line), lr.N); err != nil {
			return nil, err
		}
	}
	switch {
	case r.calls >= 0:
		return nil, analysis.LineError(r.file, lr.N+1, "expected the cost line of the calls= on line %d before the end of the file (truncated?)", r.callLine)
	case g.events == nil:
		return nil, analysis.LineError(r.file, lr.N+1, "expected an \"events:\" line (is this a callgrind file?)")
	case len(g.funcs) == 0:
		return nil, analysis.LineError(r.file, lr.N+1, "expected at least one function (fn=) with its costs")
	}
	g.linkInlined()
	return g, nil
}

// line reads one line, trimmed.
func (r *reader) line(l []byte, n int) error {
	switch {
	case len(l) == 0 || l[0] == '#':
		return nil
	case isCost(l):
		return r.costLine(l, n)
	case r.calls >= 0:
		return analysis.LineError(r.file, n, "expected the cost line of the calls= on line %d, got %q", r.callLine, text.Clip(string(l)))
	}
	if key, value, ok := bytes.Cut(l, []byte("=")); ok && isKey(key) {
		return r.spec(string(key), bytes.TrimSpace(value), n)
	}
	if isHeader(l) {
		key, value, _ := bytes.Cut(l, []byte(":"))
		return r.header(string(key), bytes.TrimSpace(value), n)
	}
	return analysis.LineError(r.file, n, "expected a cost line, a NAME=VALUE line or a \"key: value\" header, got %q", text.Clip(string(l)))
}

// isCost reports whether l starts as a cost line does: with a subposition.
func isCost(l []byte) bool {
	c := l[0]
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*'
}

// isKey reports whether k is a lower-case word, as the keys of position
// and association lines are.
func isKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isHeader reports whether l is a "key: value" line.
func isHeader(l []byte) bool {
	key, _, ok := bytes.Cut(l, []byte(":"))
	return ok && isKey(key)
}

// header reads a "key: value" line; the keys that do not change how the
// body reads (version, creator, cmd, pid, part, desc, event) are skipped.
func (r *reader) header(key string, value []byte, n int) error {
	switch key {
	case "events":
		names := fieldStrings(value)
		if len(names) == 0 {
			return analysis.LineError(r.file, n, "expected event names after \"events:\"")
		}
		if r.g.events != nil && !slices.Equal(r.g.events, names) {
			return analysis.LineError(r.file, n, "expected the events of the first part (%v), got %v: parts with other events are not supported", r.g.events, names)
		}
		r.g.events = names
	case "positions":
		return r.positionsLine(value, n)
	case "thread":
		r.g.thread = "thread " + string(value)
	case "totals", "summary":
		if r.g.events == nil {
			return nil // a summary before the events cannot be read; it is only a check
		}
		costs, err := r.parseCosts(bytes.Fields(value))
		if err != nil {
			costs, err = r.wrappedCosts(bytes.Fields(value), err)
		}
		if err != nil {
			return analysis.LineError(r.file, n, "%s: %v", key, err)
		}
		if key == "totals" || r.g.totals == nil {
			r.g.totals = costs
		}
	}
	return nil
}

func (r *reader) positionsLine(value []byte, n int) error {
	words := fieldStrings(value)
	for _, w := range words {
		if w != "instr" && w != "line" && w != "bb" {
			return analysis.LineError(r.file, n, "expected positions among instr, bb and line, got %q", w)
		}
	}
	r.positions = len(words)
	return nil
}

// spec reads a position specification (fn=, fl=, ...) or an association
// (calls=).
func (r *reader) spec(key string, value []byte, n int) error {
	kind, ok := map[string]int{"ob": obNames, "cob": obNames, "fl": flNames, "fi": flNames, "fe": flNames,
		"cfi": flNames, "cfl": flNames, "jfi": flNames, "fn": fnNames, "cfn": fnNames, "jfn": fnNames}[key]
	if !ok {
		if key == "calls" {
			return r.callsLine(value, n)
		}
		return nil // jump=, jcnd= and keys of later versions: nothing we draw
	}
	name, err := r.name(kind, value, n)
	if err != nil {
		return err
	}
	if r.g.events == nil && (key == "fn" || key == "cfn") {
		return analysis.LineError(r.file, n, "expected an \"events:\" line before %s=", key)
	}
	switch key {
	case "ob":
		r.ob = name
	case "fl":
		r.fl, r.pos = name, name
	case "fi", "fe":
		r.pos = name
		if r.fn >= 0 {
			r.cur = r.fn
			if r.pos != r.home {
				r.cur = r.g.inlined(r.fn, r.pos)
			}
		}
	case "fn":
		r.fn = r.g.function(fnKey{ob: r.ob, fl: r.pos, name: name})
		r.home, r.cur = r.pos, r.fn
	case "cob":
		r.cob = name
	case "cfi", "cfl":
		r.cfi = name
	case "cfn":
		k := fnKey{ob: r.ob, fl: r.pos, name: name}
		if r.cob != "" {
			k.ob = r.cob
		}
		if r.cfi != "" {
			k.fl = r.cfi
		}
		r.callee, r.cob, r.cfi = r.g.function(k), "", ""
	}
	return nil
}

// name resolves name compression: "(id) name" defines id, "(id)" uses it.
func (r *reader) name(kind int, v []byte, n int) (string, error) {
	if len(v) < 2 || v[0] != '(' || v[1] < '0' || v[1] > '9' {
		return string(v), nil
	}
	end := bytes.IndexByte(v, ')')
	if end < 0 || !text.Digits(v[1:end]) {
		return "", analysis.LineError(r.file, n, "expected a compressed name \"(id) name\" or \"(id)\", got %q", text.Clip(string(v)))
	}
	id, rest := string(v[1:end]), bytes.TrimSpace(v[end+1:])
	if len(rest) > 0 {
		r.names[kind][id] = string(rest)
		return string(rest), nil
	}
	name, ok := r.names[kind][id]
	if !ok {
		return "", analysis.LineError(r.file, n, "name (%s) is used before a line defines it", id)
	}
	return name, nil
}

func (r *reader) callsLine(value []byte, n int) error {
	f := bytes.Fields(value)
	if len(f) == 0 || !text.Digits(f[0]) {
		return analysis.LineError(r.file, n, "expected calls=COUNT TARGET-POSITION, got calls=%q", text.Clip(string(value)))
	}
	count, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return analysis.LineError(r.file, n, "call count %q: %v", f[0], err)
	}
	if r.fn < 0 || r.callee < 0 {
		return analysis.LineError(r.file, n, "expected fn= and cfn= before calls=")
	}
	r.calls, r.callLine = count, n
	return nil
}

// costLine reads a cost line: the self cost of the current function, or
// the inclusive cost of the calls= before it.
func (r *reader) costLine(l []byte, n int) error {
	if r.g.events == nil {
		return analysis.LineError(r.file, n, "expected an \"events:\" line before the first cost line")
	}
	f := bytes.Fields(l)
	if len(f) < r.positions {
		return analysis.LineError(r.file, n, "expected %d subposition(s) and costs, got %q", r.positions, text.Clip(string(l)))
	}
	for _, p := range f[:r.positions] {
		if !subposition.Match(p) {
			return analysis.LineError(r.file, n, "expected a subposition (N, 0xN, +N, -N or *), got %q", text.Clip(string(p)))
		}
	}
	costs, err := r.parseCosts(f[r.positions:])
	if err != nil {
		return analysis.LineError(r.file, n, "%v", err)
	}
	if r.fn < 0 {
		return analysis.LineError(r.file, n, "expected fn= before the first cost line")
	}
	if r.calls >= 0 {
		r.g.call(r.cur, r.callee, r.calls, costs)
		r.calls = -1
		return nil
	}
	self := r.g.funcs[r.cur].self
	for i, c := range costs {
		self[i] += c
	}
	return nil
}

// wrappedCosts reads a summary whose counters passed 2^63: the tools that
// wrote it (crabgrind) let a total wrap below zero and printed it unsigned.
// Like callgrind_annotate, which reads the file anyway, it is read, as the
// negative numbers it stands for; the totals check (warn) then says that it
// disagrees with the cost lines. err is parseCosts's error, returned when a
// counter is not an unsigned number either.
func (r *reader) wrappedCosts(f [][]byte, err error) ([]int64, error) {
	if len(f) > len(r.g.events) {
		return nil, err
	}
	costs := make([]int64, len(r.g.events))
	for i, s := range f {
		u, uerr := strconv.ParseUint(string(s), 10, 64)
		if uerr != nil {
			return nil, err
		}
		costs[i] = int64(u)
	}
	r.g.wrapped = true
	return costs, nil
}

var subposition = regexp.MustCompile(`^(\*|[+-]?([0-9]+|0x[0-9a-fA-F]+))$`)

// parseCosts reads up to one counter per event; the missing ones are 0.
func (r *reader) parseCosts(f [][]byte) ([]int64, error) {
	if len(f) > len(r.g.events) {
		return nil, fmt.Errorf("expected at most %d costs (events: %v), got %d", len(r.g.events), r.g.events, len(f))
	}
	costs := make([]int64, len(r.g.events))
	for i, s := range f {
		c, err := strconv.ParseInt(string(s), 0, 64)
		if err != nil {
			return nil, fmt.Errorf("expected a cost for %s, got %q", r.g.events[i], text.Clip(string(s)))
		}
		costs[i] = c
	}
	return costs, nil
}

// recursion is the suffix of callgrind's recursion contexts ("fib'2").
var recursion = regexp.MustCompile(`'[0-9]+$`)

// function returns the id of the function k, adding it when new.
func (g *graph) function(k fnKey) int32 {
	if id, ok := g.byKey[k]; ok {
		return id
	}
	file := k.fl
	if file == "???" {
		file = ""
	}
	id := int32(len(g.funcs))
	g.funcs = append(g.funcs, function{key: k, frame: analysis.Frame{Name: recursion.ReplaceAllString(k.name, ""), File: file, Lib: k.ob},
		self: make([]int64, len(g.events)), host: -1})
	g.byKey[k] = id
	return id
}

// inlined returns the id of the code of file inlined into function host,
// adding it when new: a function of its own (as callgrind_annotate counts
// it), named "fn [inlined from file]", that the host reaches by an inline
// edge (linkInlined).
func (g *graph) inlined(host int32, file string) int32 {
	k := g.funcs[host].key
	k.in = file
	if id, ok := g.byKey[k]; ok {
		return id
	}
	id := g.function(k)
	f := &g.funcs[id]
	f.frame.Name = analysis.CleanName(f.frame.Name) + " [inlined from " + file[strings.LastIndexByte(file, '/')+1:] + "]"
	f.frame.File = strings.TrimPrefix(file, "???")
	f.host = host
	return id
}

// linkInlined gives each function an inline edge to each part of its code
// inlined from other files, costing that part's self cost and its calls.
func (g *graph) linkInlined() {
	for id := range g.funcs {
		f := &g.funcs[id]
		if f.host < 0 {
			continue
		}
		cost := slices.Clone(f.self)
		for _, e := range f.out {
			add(cost, g.edges[e].cost)
		}
		g.call(f.host, int32(id), 0, cost)
		g.edges[g.byEdge[[2]int32{f.host, int32(id)}]].inline = true
	}
}

// call adds calls from one function to another with their inclusive cost.
func (g *graph) call(from, to int32, calls int64, cost []int64) {
	id, ok := g.byEdge[[2]int32{from, to}]
	if !ok {
		id = int32(len(g.edges))
		g.edges = append(g.edges, edge{from: from, to: to, cost: make([]int64, len(g.events))})
		g.byEdge[[2]int32{from, to}] = id
		g.funcs[from].out = append(g.funcs[from].out, id)
	}
	e := &g.edges[id]
	e.calls += calls
	for i, c := range cost {
		e.cost[i] += c
	}
}

func fieldStrings(b []byte) []string {
	var out []string
	for _, f := range bytes.Fields(b) {
		out = append(out, string(f))
	}
	return out
}
