package chrome

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// Span events (B, E, X) into samples; the rules are in spans.go.

// span is one begin or end, X events giving one of each.
type span struct {
	ts   float64
	name string // as written, for matching ends to begins
	id   string // name and args, for matching ends to begins exactly
	key  string // frame identity
	file string // Hermes: the script URL
	line int64
	ev   *traceEvent
}

// spanConv converts the spans of one thread.
type spanConv struct {
	b      *analysis.Builder
	hermes bool
	frames map[string]int32 // span key → frame id
	open   []*span
	stack  []int32
	last   float64
	out    []jsonprof.Sample
	thread string
	origin float64
}

func parseSpans(in *analysis.Input, f *traceFile) (*analysis.Profile, error) {
	b := in.NewBuilder(spanValueTypes...)
	byThread := map[threadKey][]*traceEvent{}
	origin := 0.0
	first := true
	for i := range f.TraceEvents {
		e := &f.TraceEvents[i]
		switch e.Ph {
		case "B", "E", "X":
			k := keyOf(e.Pid, e.Tid)
			byThread[k] = append(byThread[k], e)
			if first || float64(e.Ts) < origin {
				origin, first = float64(e.Ts), false
			}
		}
	}
	labels := newThreadLabels(f.TraceEvents)
	c := &spanConv{b: b, hermes: isHermes(f), frames: map[string]int32{}, origin: origin}
	for _, k := range sortedThreads(byThread) {
		c.thread = labels.describe(b, k)
		c.run(byThread[k])
	}
	addObjects(b, f.TraceEvents, labels, origin)
	jsonprof.AddWeighted(b, c.out, true)
	return b.Finish(), nil
}

// isHermes reports whether an array trace comes from Hermes: its first
// event's args carry the Hermes keys.
func isHermes(f *traceFile) bool {
	if !f.array {
		return false
	}
	for i := range f.TraceEvents {
		if e := &f.TraceEvents[i]; e.index == 0 {
			var args map[string]json.RawMessage
			if json.Unmarshal(e.Args, &args) != nil {
				return false
			}
			for _, k := range []string{"line", "column", "name", "category", "url", "params", "allocatedCategory", "allocatedName"} {
				if _, ok := args[k]; !ok {
					return false
				}
			}
			return true
		}
	}
	return false
}

// queues returns the thread's begins and ends, each in time order.
func (c *spanConv) queues(events []*traceEvent) (begins, ends []*span) {
	var xs []*traceEvent
	for _, e := range events {
		switch e.Ph {
		case "B":
			begins = append(begins, c.span(e, float64(e.Ts)))
		case "E":
			ends = append(ends, c.span(e, float64(e.Ts)))
		case "X":
			xs = append(xs, e)
		}
	}
	// Among X events starting together the longer one is the outer one.
	sort.SliceStable(xs, func(i, j int) bool {
		if xs[i].Ts != xs[j].Ts {
			return xs[i].Ts < xs[j].Ts
		}
		return xdur(xs[i]) > xdur(xs[j])
	})
	for _, x := range xs {
		begins = append(begins, c.span(x, float64(x.Ts)))
		ends = append(ends, c.span(x, float64(x.Ts)+xdur(x)))
	}
	byTime := func(s []*span) {
		sort.SliceStable(s, func(i, j int) bool { return s[i].ts < s[j].ts })
	}
	byTime(begins)
	byTime(ends)
	return begins, ends
}

func xdur(e *traceEvent) float64 {
	switch {
	case e.Dur != nil:
		return *e.Dur
	case e.Tdur != nil:
		return *e.Tdur
	}
	return 0
}

func (c *spanConv) span(e *traceEvent, ts float64) *span {
	n := e.Name
	if n == "" {
		n = "(unnamed)"
	}
	s := &span{ts: ts, name: e.Name, id: n, key: n, ev: e}
	if a := compactArgs(e.Args); a != "" {
		s.id += " " + a
	}
	if c.hermes {
		s.key, s.file, s.line = hermesFrame(n, e.Args)
	}
	return s
}

// hermesFrame identifies a Hermes frame as "fn url:line:col" (the JS form),
// or by its name when it has no URL; it returns the URL and line too.
func hermesFrame(name string, raw json.RawMessage) (key, url string, line int64) {
	var a struct {
		URL    *string     `json:"url"`
		Line   json.Number `json:"line"`
		Column json.Number `json:"column"`
	}
	if json.Unmarshal(raw, &a) != nil || a.URL == nil || *a.URL == "" {
		return name, "", 0
	}
	line, _ = a.Line.Int64()
	return fmt.Sprintf("%s %s:%s:%s", name, *a.URL, a.Line, a.Column), *a.URL, line
}

// run converts one thread's spans.
func (c *spanConv) run(events []*traceEvent) {
	begins, ends := c.queues(events)
	c.open, c.stack = c.open[:0], c.stack[:0]
	c.last = 0
	if len(begins) > 0 {
		c.last = begins[0].ts
	}
	for len(begins) > 0 || len(ends) > 0 {
		if len(ends) == 0 || len(begins) > 0 && (begins[0].ts < ends[0].ts ||
			begins[0].ts == ends[0].ts && begins[0].id == ends[0].id) {
			c.enter(begins[0])
			begins = begins[1:]
			continue
		}
		c.preferMatch(ends)
		c.leave(ends[0])
		ends = ends[1:]
	}
}

// preferMatch moves to the front of ends an end at the same time that
// matches the innermost open span exactly, else one with its name.
func (c *spanConv) preferMatch(ends []*span) {
	if len(c.open) == 0 {
		return
	}
	top := c.open[len(c.open)-1]
	for _, same := range []func(e *span) bool{
		func(e *span) bool { return e.key == top.key && (c.hermes || e.id == top.id) },
		func(e *span) bool { return e.name == top.name },
	} {
		for i := 1; i < len(ends) && ends[i].ts <= ends[0].ts; i++ {
			if same(ends[i]) {
				ends[0], ends[i] = ends[i], ends[0]
				return
			}
		}
	}
}

func (c *spanConv) enter(s *span) {
	c.advance(s.ts)
	id, ok := c.frames[s.key]
	if !ok {
		id = c.b.Frame(analysis.Frame{Name: s.key, File: s.file, Line: s.line})
		c.frames[s.key] = id
	}
	c.open = append(c.open, s)
	c.stack = append(c.stack, id)
	c.b.Enter(c.thread, id, jsonprof.Nanos(s.ts-c.origin))
}

// leave closes the innermost open span if the end names it; other ends are
// ignored.
func (c *spanConv) leave(e *span) {
	if len(c.open) == 0 || c.open[len(c.open)-1].name != e.name {
		return
	}
	c.advance(e.ts)
	c.open = c.open[:len(c.open)-1]
	c.stack = c.stack[:len(c.stack)-1]
	c.b.Exit(c.thread, jsonprof.Nanos(e.ts-c.origin))
}

// advance gives the time since the last event to the open stack.
func (c *spanConv) advance(t float64) {
	if t > c.last && len(c.stack) > 0 {
		c.out = append(c.out, jsonprof.Sample{Stack: c.b.Stack(c.stack), Weight: jsonprof.Nanos(t - c.last), Time: jsonprof.Nanos(c.last - c.origin), Thread: c.thread})
	}
	if t > c.last {
		c.last = t
	}
}
