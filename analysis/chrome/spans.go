package chrome

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// Traces without a CPU profile. Two more kinds of trace carry stacks:
//
//   - "samples" with "stackFrames" (the trace-event format's own sampling):
//     each sample names its leaf frame, whose parents give the stack; a
//     sample weighs the time until the next sample of its thread.
//   - B/E (begin/end) and X (complete) span events, the instrumented call
//     stacks of chrome://tracing: per thread, the open spans at each moment
//     form the stack, and each interval between two events becomes one
//     sample weighing its length.
//
// Spans are read as the trace viewers read them, each thread's events in
// time order and, at equal times, in the file's order: an X event is one
// call of its own duration; an E closes the innermost open B of its name
// (of any name when it has none); an E that closes nothing is ignored, and
// a B never closed ends at its thread's last event, each with a warning. A
// call always lasts its own span, never longer: spans that overlap without
// nesting are placed on further tracks of their thread (tracks.go). Frames
// are named by the event name only (speedscope adds the args, which would
// split one function into as many frames as argument values); Hermes spans
// (args url, line, column) are named "fn url:line:col". Threads are
// labelled "process (pid P), thread (tid T)" as speedscope does. Where the
// spans nest, this gives speedscope's trace-event importer's results, so
// that its snapshots check them.

type traceSample struct {
	Name string          `json:"name"`
	Ts   json.RawMessage `json:"ts"`
	Pid  json.RawMessage `json:"pid"`
	Tid  json.RawMessage `json:"tid"`
	Sf   json.RawMessage `json:"sf"`
}

type stackFrame struct {
	Name     string          `json:"name"`
	Category string          `json:"category"`
	Parent   json.RawMessage `json:"parent"`
}

// spanValueTypes are the value types of span and trace-sample profiles.
var spanValueTypes = []analysis.ValueType{{Type: "wall", Unit: "nanoseconds"}}

// hasSpans reports whether the trace has B, E or X events.
func hasSpans(events []traceEvent) bool {
	for i := range events {
		switch events[i].Ph {
		case "B", "E", "X":
			return true
		}
	}
	return false
}

// threadKey orders threads as speedscope does: by pid, then tid.
type threadKey struct{ pid, tid float64 }

func keyOf(pid, tid json.RawMessage) threadKey {
	p, _ := strconv.ParseFloat(rawText(pid), 64)
	t, _ := strconv.ParseFloat(rawText(tid), 64)
	return threadKey{p, t}
}

// threadLabels names threads from the trace's metadata events.
type threadLabels struct {
	process map[float64]string
	thread  map[threadKey]string
}

func newThreadLabels(events []traceEvent) *threadLabels {
	l := &threadLabels{process: map[float64]string{}, thread: map[threadKey]string{}}
	for i := range events {
		e := &events[i]
		if e.Ph != "M" || (e.Name != "process_name" && e.Name != "thread_name") {
			continue
		}
		var a struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(e.Args, &a) != nil || a.Name == "" {
			continue
		}
		k := keyOf(e.Pid, e.Tid)
		if e.Name == "process_name" {
			l.process[k.pid] = a.Name
		} else {
			l.thread[k] = a.Name
		}
	}
	return l
}

func (l *threadLabels) label(k threadKey) string {
	p, pok := l.process[k.pid]
	t, tok := l.thread[k]
	pid, tid := num(k.pid), num(k.tid)
	switch {
	case pok && tok:
		return fmt.Sprintf("%s (pid %s), %s (tid %s)", p, pid, t, tid)
	case pok:
		return fmt.Sprintf("%s (pid %s, tid %s)", p, pid, tid)
	case tok:
		return fmt.Sprintf("%s (pid %s, tid %s)", t, pid, tid)
	}
	return fmt.Sprintf("pid %s, tid %s", pid, tid)
}

// describe gives b the thread k, with its ids and its process, and returns
// its label.
func (l *threadLabels) describe(b *analysis.Builder, k threadKey) string {
	t := analysis.Thread{Name: l.label(k), ID: num(k.tid), Process: l.process[k.pid], PID: num(k.pid)}
	b.DescribeThread(t)
	return t.Name
}

// describeTrack is describe for track t of thread k (0: the thread's own),
// a further track being labelled "…, track N" with the thread's ids.
func (l *threadLabels) describeTrack(b *analysis.Builder, k threadKey, t int) string {
	if t == 0 {
		return l.describe(b, k)
	}
	th := analysis.Thread{Name: fmt.Sprintf("%s, track %d", l.label(k), t+1), ID: num(k.tid), Process: l.process[k.pid], PID: num(k.pid)}
	b.DescribeThread(th)
	return th.Name
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// sortedThreads returns the keys of m in pid, tid order.
func sortedThreads[V any](m map[threadKey]V) []threadKey {
	keys := make([]threadKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].pid != keys[j].pid {
			return keys[i].pid < keys[j].pid
		}
		return keys[i].tid < keys[j].tid
	})
	return keys
}

// parseTraceSamples loads the samples + stackFrames form.
func parseTraceSamples(in *analysis.Input, f *traceFile) (*analysis.Profile, error) {
	b := in.NewBuilder(spanValueTypes...)
	byThread := map[threadKey][]int{}
	for i := range f.Samples {
		k := keyOf(f.Samples[i].Pid, f.Samples[i].Tid)
		byThread[k] = append(byThread[k], i)
	}
	labels := newThreadLabels(f.TraceEvents)
	ids := map[string]int32{}
	var out []jsonprof.Sample
	origin := 0.0
	for i := range f.Samples {
		if t := tsOf(f.Samples[i].Ts); i == 0 || t < origin {
			origin = t
		}
	}
	for _, k := range sortedThreads(byThread) {
		idx, thread := byThread[k], labels.describe(b, k)
		for j, i := range idx {
			s := &f.Samples[i]
			stack, err := sampleStack(b, f.StackFrames, rawText(s.Sf), ids)
			if err != nil {
				return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: fmt.Sprintf("samples[%d]: %v", i, err)}
			}
			var w float64
			if j+1 < len(idx) {
				w = tsOf(f.Samples[idx[j+1]].Ts) - tsOf(s.Ts)
			}
			out = append(out, jsonprof.Sample{Stack: b.Stack(stack), Weight: jsonprof.Nanos(w), Time: jsonprof.Nanos(tsOf(s.Ts) - origin), Thread: thread})
		}
	}
	jsonprof.AddWeighted(b, out, true)
	return b.Finish(), nil
}

// tsOf reads a timestamp given as a number or a string.
func tsOf(r json.RawMessage) float64 {
	t, _ := strconv.ParseFloat(rawText(r), 64)
	return t
}

// sampleStack returns the frame ids of the stack whose leaf is frame id sf,
// root first.
func sampleStack(b *analysis.Builder, frames map[string]stackFrame, sf string, ids map[string]int32) ([]int32, error) {
	var stack []int32
	for id := sf; id != "" && id != "0"; {
		fr, ok := frames[id]
		if !ok {
			return nil, fmt.Errorf("expected stack frame %q in stackFrames", id)
		}
		if len(stack) > len(frames) {
			return nil, fmt.Errorf("stack frame %q is its own ancestor", sf)
		}
		key := fr.Name + ":" + fr.Category
		fid, ok := ids[key]
		if !ok {
			fid = b.Frame(analysis.Frame{Name: fr.Name})
			ids[key] = fid
		}
		stack = append(stack, fid)
		id = rawText(fr.Parent)
	}
	for i, j := 0, len(stack)-1; i < j; i, j = i+1, j-1 {
		stack[i], stack[j] = stack[j], stack[i]
	}
	return stack, nil
}
