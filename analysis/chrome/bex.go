package chrome

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// Span events (B, E, X) into calls and samples; the rules are in spans.go
// and tracks.go.

// span is one call of a thread: an X event, or a B event with the E that
// closes it.
type span struct {
	begin, end float64 // µs on the trace clock; end ≥ begin
	name       string  // as written, for matching ends to begins
	key        string  // frame identity
	file       string  // Hermes: the script URL
	line       int64
	beginAt    int   // position of its begin among the thread's events
	endAt      int   // position of its E among them; -1 for X events and unclosed begins
	x          bool  // an X event
	parent     *span // the span it is placed in; nil at its track's root
	track      int   // 0: the thread's own track; k > 0: its (k+1)th track
}

// spanConv converts the spans of one thread at a time.
type spanConv struct {
	b      *analysis.Builder
	hermes bool
	frames map[string]int32 // span key → frame id
	origin float64
	end    float64 // the last moment of any thread
	out    []jsonprof.Sample
	tally  spanTally
}

// spanTally counts, over all threads, what needs saying in info.
type spanTally struct {
	spans, overlapped, unclosed, unmatched int
	threads, tracks                        int // threads with overlapping spans, and the tracks they add
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
	c := &spanConv{b: b, hermes: isHermes(f), frames: map[string]int32{}, origin: origin, end: origin}
	for _, k := range sortedThreads(byThread) {
		spans := c.pair(byThread[k])
		c.emit(labels, k, spans, layOut(spans))
	}
	addObjects(b, f.TraceEvents, labels, origin)
	c.tally.report(b)
	b.Profile().Duration = jsonprof.Duration(jsonprof.Nanos(c.end - origin))
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

// pair turns one thread's events, in time order (the file's order at equal
// times), into spans: an X event is one; an E closes the innermost open B
// of its name (the innermost open B when it has none); an E that closes
// nothing is counted and dropped; a B never closed ends at the thread's
// last moment.
func (c *spanConv) pair(events []*traceEvent) []*span {
	var spans, open []*span
	last := math.Inf(-1)
	for i, e := range events {
		ts := float64(e.Ts)
		last = max(last, ts)
		switch e.Ph {
		case "X":
			s := c.span(e, i)
			s.end, s.x = ts+max(xdur(e), 0), true
			last = max(last, s.end)
			spans = append(spans, s)
		case "B":
			s := c.span(e, i)
			spans, open = append(spans, s), append(open, s)
		case "E":
			j := len(open) - 1
			for e.Name != "" && j >= 0 && open[j].name != e.Name {
				j--
			}
			if j < 0 {
				c.tally.unmatched++
				continue
			}
			open[j].end, open[j].endAt = ts, i
			open = append(open[:j], open[j+1:]...)
		}
	}
	for _, s := range open {
		s.end = last
		c.tally.unclosed++
	}
	c.tally.spans += len(spans)
	c.end = max(c.end, last)
	return spans
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

// span starts the span of event e, the thread's event number at.
func (c *spanConv) span(e *traceEvent, at int) *span {
	n := e.Name
	if n == "" {
		n = "(unnamed)"
	}
	ts := float64(e.Ts)
	s := &span{begin: ts, end: ts, name: e.Name, key: n, beginAt: at, endAt: -1}
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

// emit gives b the calls and the samples of one thread's spans, laid out
// on tracks (layOut): each track is a thread of the profile.
func (c *spanConv) emit(labels *threadLabels, k threadKey, spans []*span, tracks int) {
	names := make([]string, tracks)
	for t := range names {
		names[t] = labels.describeTrack(c.b, k, t)
	}
	if tracks > 1 {
		c.tally.threads++
		c.tally.tracks += tracks - 1
	}
	stacks := make([][]*span, tracks)
	clock := make([]float64, tracks)
	for _, s := range spans {
		if s.track > 0 {
			c.tally.overlapped++
		}
		st := stacks[s.track]
		for len(st) > 0 && st[len(st)-1] != s.parent {
			st = c.leave(names[s.track], st, &clock[s.track])
		}
		stacks[s.track] = c.enter(names[s.track], st, s, &clock[s.track])
	}
	for t, st := range stacks {
		for len(st) > 0 {
			st = c.leave(names[t], st, &clock[t])
		}
	}
}

// enter opens s on a track whose open spans are st and whose clock (the
// time of its last event) is at *clock.
func (c *spanConv) enter(thread string, st []*span, s *span, clock *float64) []*span {
	c.advance(thread, st, s.begin, clock)
	id, ok := c.frames[s.key]
	if !ok {
		id = c.b.Frame(analysis.Frame{Name: s.key, File: s.file, Line: s.line})
		c.frames[s.key] = id
	}
	c.b.Enter(thread, id, jsonprof.Nanos(s.begin-c.origin))
	return append(st, s)
}

// leave closes the innermost open span of a track.
func (c *spanConv) leave(thread string, st []*span, clock *float64) []*span {
	s := st[len(st)-1]
	c.advance(thread, st, s.end, clock)
	c.b.Exit(thread, jsonprof.Nanos(s.end-c.origin))
	return st[:len(st)-1]
}

// advance gives the time from *clock to t to the open stack st.
func (c *spanConv) advance(thread string, st []*span, t float64, clock *float64) {
	if len(st) > 0 && t > *clock {
		ids := make([]int32, len(st))
		for i, s := range st {
			ids[i] = c.frames[s.key]
		}
		c.out = append(c.out, jsonprof.Sample{Stack: c.b.Stack(ids), Weight: jsonprof.Nanos(t - *clock), Time: jsonprof.Nanos(*clock - c.origin), Thread: thread})
	}
	if t > *clock {
		*clock = t
	}
}

// report tells what the spans needed: overlaps placed on tracks, begins
// without ends, ends without begins.
func (t spanTally) report(b *analysis.Builder) {
	if t.overlapped > 0 {
		b.Note(fmt.Sprintf("%d of %d span events overlapped an earlier event of their thread without nesting in it "+
			"(they begin inside it and end after it), on %s; each keeps its own duration and is placed on a further "+
			"track of its thread, shown as a thread of its own (%s added, named \"…, track N\")",
			t.overlapped, t.spans, count(t.threads, "thread"), count(t.tracks, "track")))
	}
	if t.unclosed > 0 {
		b.Warn(fmt.Sprintf("begin (B) events without an end (E) event: %d; they end at their thread's last event", t.unclosed))
	}
	if t.unmatched > 0 {
		b.Warn(fmt.Sprintf("end (E) events that close no open begin (B) event of their name on their thread: %d; they are ignored", t.unmatched))
	}
}

// count is "1 thing" or "n things".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
