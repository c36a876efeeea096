package jfr

import (
	"cmp"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grafana/jfr-parser/parser"
	"github.com/grafana/jfr-parser/parser/types"
	"github.com/grafana/jfr-parser/parser/types/def"

	"github.com/proflens/proflens/analysis"
)

// kind is what an event measures; each kind has one or two value types.
type kind uint8

const (
	cpu kind = iota
	wall
	alloc
	lock
	park
	nKinds
)

var kindTypes = [nKinds][]analysis.ValueType{
	cpu:   {{Type: "samples", Unit: "count"}},
	wall:  {{Type: "wall", Unit: "count"}},
	alloc: {{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
	lock:  {{Type: "lock_count", Unit: "count"}, {Type: "lock_time", Unit: "nanoseconds"}},
	park:  {{Type: "park_count", Unit: "count"}, {Type: "park_time", Unit: "nanoseconds"}},
}

// event is one event kept for the profile, before the events are put in
// time order.
type event struct {
	time   int64 // nanoseconds since the earliest chunk's start
	n, v   int64 // the kind's count and, for kinds with two types, its second value
	ref    types.StackTraceRef
	chunk  int32
	thread int32 // index into reader.threads
	kind   kind
	class  types.ClassRef // the object's class, for allocation events (memory.go)
}

// reader gathers the events of every chunk.
type reader struct {
	name      string
	origin    int64
	parsers   []*parser.Parser // by chunk, kept to resolve stacks once the value types are known
	events    []event
	threads   []string
	threadIDs map[string]int32
	has       [nKinds]bool
	max       int64 // the samples limit
}

// read parses one chunk's events.
func (r *reader) read(in *analysis.Input, c *chunk, i int) error {
	buf := in.Data[c.off : c.off+c.size]
	if at, err := check(buf, c.meta, c.pool); err != nil {
		return &located{at, err}
	}
	p := parser.NewParser(buf, parser.Options{SymbolProcessor: parser.ProcessSymbols})
	r.parsers = append(r.parsers, p)
	ctx := in.Context()
	for n := 0; ; n++ {
		typ, err := p.ParseEvent()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if n&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if e, ok := r.decode(p, c, typ); ok {
			e.chunk = int32(i)
			if int64(len(r.events)) >= r.max {
				return &analysis.LimitError{File: r.name, What: "samples", Max: r.max, Option: "max-samples"}
			}
			r.events = append(r.events, e)
			r.has[e.kind] = true
		}
	}
}

// located is an error at an offset in a chunk.
type located struct {
	at  int
	err error
}

func (l *located) Error() string { return l.err.Error() }
func (l *located) Unwrap() error { return l.err }

// decode turns the event the parser just read into an event of ours.
func (r *reader) decode(p *parser.Parser, c *chunk, typ def.TypeID) (event, bool) {
	m := &p.TypeMap
	ev := func(k kind, start uint64, st types.StackTraceRef, th types.ThreadRef, n, v int64) (event, bool) {
		return event{time: c.at(start, r.origin), ref: st, thread: r.thread(p, th), kind: k, n: n, v: v}, true
	}
	switch typ {
	case m.T_EXECUTION_SAMPLE:
		e := &p.ExecutionSample
		return ev(cpu, e.StartTime, e.StackTrace, e.SampledThread, 1, 0)
	case m.T_WALL_CLOCK_SAMPLE:
		e := &p.WallClockSample
		return ev(wall, e.StartTime, e.StackTrace, e.SampledThread, int64(max(e.Samples, 1)), 0)
	case m.T_ALLOC_IN_NEW_TLAB:
		e := &p.ObjectAllocationInNewTLAB
		out, ok := ev(alloc, e.StartTime, e.StackTrace, e.EventThread, 1, size(cmp.Or(e.TlabSize, e.AllocationSize)))
		out.class = e.ObjectClass
		return out, ok
	case m.T_ALLOC_OUTSIDE_TLAB:
		e := &p.ObjectAllocationOutsideTLAB
		out, ok := ev(alloc, e.StartTime, e.StackTrace, e.EventThread, 1, size(e.AllocationSize))
		out.class = e.ObjectClass
		return out, ok
	case m.T_ALLOC_SAMPLE:
		e := &p.ObjectAllocationSample
		out, ok := ev(alloc, e.StartTime, e.StackTrace, e.EventThread, 1, size(e.Weight))
		out.class = e.ObjectClass
		return out, ok
	case m.T_MONITOR_ENTER:
		e := &p.JavaMonitorEnter
		return ev(lock, e.StartTime, e.StackTrace, e.EventThread, 1, c.nanos(e.Duration))
	case m.T_THREAD_PARK:
		e := &p.ThreadPark
		return ev(park, e.StartTime, e.StackTrace, e.EventThread, 1, c.nanos(e.Duration))
	}
	return event{}, false
}

// size bounds a byte count so that no total can overflow.
func size(n uint64) int64 { return int64(min(n, 1<<40)) }

// thread returns the id of an event's thread, named as the JVM names it.
func (r *reader) thread(p *parser.Parser, ref types.ThreadRef) int32 {
	name := "[unknown thread]"
	if i, ok := p.Threads.IDMap[ref]; ok && int(i) < len(p.Threads.Thread) {
		t := &p.Threads.Thread[i]
		name = cmp.Or(t.JavaName, t.OsName, "thread "+strconv.FormatUint(t.OsThreadId, 10))
	}
	if id, ok := r.threadIDs[name]; ok {
		return id
	}
	if r.threadIDs == nil {
		r.threadIDs = map[string]int32{}
	}
	name = strings.Clone(name) // the parser's strings point into the file's bytes
	r.threadIDs[name] = int32(len(r.threads))
	r.threads = append(r.threads, name)
	return int32(len(r.threads) - 1)
}

// build adds the events, in time order, to a builder with the value types
// of the kinds present.
func (r *reader) build(in *analysis.Input) *analysis.Builder {
	var vts []analysis.ValueType
	var col [nKinds]int
	for k := range nKinds {
		if r.has[k] {
			col[k] = len(vts)
			vts = append(vts, kindTypes[k]...)
		}
	}
	b := in.NewBuilder(vts...)
	slices.SortStableFunc(r.events, func(a, b event) int { return cmp.Compare(a.time, b.time) })
	b.Grow(len(r.events))
	s := stacker{r: r, b: b, ids: map[stackKey]int32{}, names: map[methodKey]string{}}
	vals := make([]int64, len(vts))
	for _, e := range r.events {
		clear(vals)
		vals[col[e.kind]] = e.n
		if len(kindTypes[e.kind]) > 1 {
			vals[col[e.kind]+1] = e.v
		}
		st := s.stack(e.chunk, e.ref)
		b.Add(st, vals, e.time, true, r.threads[e.thread], nil)
		if e.kind == alloc {
			s.memory(&e, st)
		}
	}
	if s.truncated > 0 {
		b.Warn(strconv.Itoa(s.truncated) + " stacks were truncated by the recorder (raise its stackdepth= setting)")
	}
	return b
}

func unixNanos(ns int64) time.Time { return time.Unix(0, ns).UTC() }

func durationOf(ns int64) time.Duration { return time.Duration(max(ns, 0)) }
