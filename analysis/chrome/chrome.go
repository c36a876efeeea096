// Package chrome reads Chrome trace-event JSON (DevTools "Save profile", chrome://tracing,
// Lighthouse): an array of events or an object {"traceEvents": [...]}. The
// CPU samples come either from a "Profile" event followed by "ProfileChunk"
// events, whose cpuProfile nodes, samples and timeDeltas add up, or from a
// single "CpuProfile" event holding a whole V8 profile. Each profile (one per
// id, else per pid:tid) is converted as a .cpuprofile is (see analysis/v8) and
// becomes one thread of the result, labelled with its thread_name metadata
// (else "pid:tid"); all threads are loaded, and their samples merged in time
// order on the trace clock. Events are taken in timestamp order, chunks of
// undeclared profiles and chunks without data are skipped with a warning,
// as speedscope does. Other events are ignored when a CPU profile is
// present; a trace without one is read from its sampled stacks or its B/E/X
// spans instead (spans.go). A span keeps its own duration: spans of one
// thread that overlap without nesting go on further tracks of the thread,
// shown as threads of their own ("…, track 2"), and info says how many
// (tracks.go).
package chrome

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/cpuprofile"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "chrome", Priority: 41, Sniff: sniff, Parse: parse})
	// chrome-spans reads only the B/E/X spans of a trace, even one with a
	// CPU profile: the instrumented calls of chrome://tracing, as an evented
	// recording. It is chosen by name (load … format=chrome-spans), never
	// by sniffing.
	analysis.RegisterFormat(analysis.Format{Name: "chrome-spans", Priority: 41, Parse: parseSpansOnly})
}

type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Pid  json.RawMessage `json:"pid"`
	Tid  json.RawMessage `json:"tid"`
	ID   json.RawMessage `json:"id"`
	Ts   flexFloat       `json:"ts"`
	Dur  *float64        `json:"dur"`  // X events
	Tdur *float64        `json:"tdur"` // X events, thread time
	Args json.RawMessage `json:"args"`

	index int // position in the file, before sorting
}

type traceFile struct {
	TraceEvents []traceEvent          `json:"traceEvents"`
	Samples     []traceSample         `json:"samples"`     // the samples + stackFrames form
	StackFrames map[string]stackFrame `json:"stackFrames"` // by id

	array bool // the file is a bare array of events
}

// chunkData is args.data of Profile, ProfileChunk and CpuProfile events.
type chunkData struct {
	StartTime  *float64            `json:"startTime"`
	EndTime    *float64            `json:"endTime"`
	CPUProfile *cpuprofile.Profile `json:"cpuProfile"`
	TimeDeltas []float64           `json:"timeDeltas"`
	Name       string              `json:"name"` // thread_name metadata
}

type traceArgs struct {
	Data *chunkData `json:"data"`
	Name string     `json:"name"`
}

func sniff(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(h) == 0 {
		return false
	}
	switch h[0] {
	case '[':
		return bytes.Contains(h, []byte(`"ph"`))
	case '{':
		return bytes.Contains(h, []byte(`"traceEvents"`))
	}
	return false
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name := in.Name
	f, err := decodeTrace(name, in.Data)
	if err != nil {
		return nil, err
	}
	switch {
	case hasCPUProfile(f.TraceEvents):
		return parseCPUTrace(in, f.TraceEvents)
	case len(f.Samples) > 0:
		return parseTraceSamples(in, f)
	case hasSpans(f.TraceEvents):
		return parseSpans(in, f)
	}
	return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: fmt.Sprintf("expected CPU samples (Profile and ProfileChunk, or CpuProfile events), "+
		"samples with stackFrames, or B/E/X span events; the trace has %d events and none of them", len(f.TraceEvents))}
}

func parseSpansOnly(in *analysis.Input) (*analysis.Profile, error) {
	f, err := decodeTrace(in.Name, in.Data)
	if err != nil {
		return nil, err
	}
	if !hasSpans(f.TraceEvents) {
		return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: fmt.Sprintf("expected B/E/X span events; the trace has %d events and none of them", len(f.TraceEvents))}
	}
	return parseSpans(in, f)
}

// hasCPUProfile reports whether the trace holds V8 CPU profile events.
func hasCPUProfile(events []traceEvent) bool {
	for i := range events {
		switch events[i].Name {
		case "CpuProfile", "Profile", "ProfileChunk":
			return true
		}
	}
	return false
}

// parseCPUTrace loads the V8 CPU profiles of a trace.
func parseCPUTrace(in *analysis.Input, events []traceEvent) (*analysis.Profile, error) {
	name := in.Name
	b := in.NewBuilder(cpuprofile.ValueTypes...)
	prof := b.Profile()
	prof.Lang = analysis.LangJS
	prof.DefaultValue = 1
	prof.PeriodType = cpuprofile.ValueTypes[1]
	tp, err := collectProfiles(events, b)
	if err != nil {
		return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: err.Error()}
	}
	origin, end, notes := tp.span()
	var out []jsonprof.Sample
	for _, id := range tp.order {
		if len(tp.byID[id].Samples) == 0 && len(tp.byID[id].TimeDeltas) == 0 {
			continue // a profile without samples is no thread
		}
		if out, err = tp.byID[id].Convert(b, tp.describe(b, id), origin, out); err != nil {
			return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: fmt.Sprintf("profile %s: %v", id, err)}
		}
	}
	jsonprof.AddCounted(b, out)
	cpuprofile.Note(b, out)
	prof.Duration = jsonprof.Duration(end - origin)
	for _, n := range notes {
		b.Note(n)
	}
	prof.Period = jsonprof.MeanPeriod(out) // approximate across threads
	return b.Finish(), nil
}

// decodeTrace reads either trace shape, its events in timestamp order.
func decodeTrace(name string, data []byte) (*traceFile, error) {
	f := &traceFile{}
	h := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(h) > 0 && h[0] == '{' {
		if err := json.Unmarshal(data, f); err != nil {
			return nil, jsonprof.Error(name, data, "a trace-event object", err)
		}
	} else {
		f.array = true
		if err := json.Unmarshal(data, &f.TraceEvents); err != nil {
			// The array form may lack its closing bracket (the trace-event
			// format allows it, for traces cut off by a crash).
			fixed := append(append([]byte(nil), bytes.TrimRight(data, " \t\r\n,")...), ']')
			if len(h) == 0 || json.Unmarshal(fixed, &f.TraceEvents) != nil {
				return nil, jsonprof.Error(name, data, "an array of trace events", err)
			}
		}
	}
	events := f.TraceEvents
	for i := range events {
		events[i].index = i
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].Ts < events[j].Ts })
	return f, nil
}

// traceProfiles gathers the CPU profiles of a trace.
type traceProfiles struct {
	byID    map[string]*cpuprofile.Profile
	order   []string          // ids in order of first appearance
	pidTid  map[string]string // id → pid:tid of the declaring event
	threads map[string]string // pid:tid → thread name
	procs   map[string]string // pid → process name
}

func collectProfiles(events []traceEvent, b *analysis.Builder) (*traceProfiles, error) {
	tp := &traceProfiles{byID: map[string]*cpuprofile.Profile{}, pidTid: map[string]string{}, threads: map[string]string{}, procs: map[string]string{}}
	skipped := 0
	for i := range events {
		e := &events[i]
		switch e.Name {
		case "CpuProfile", "Profile", "ProfileChunk", "thread_name", "process_name":
		default:
			continue
		}
		var args traceArgs
		if len(e.Args) > 0 {
			if err := json.Unmarshal(e.Args, &args); err != nil {
				return nil, fmt.Errorf("traceEvents[%d] (%s): args: %v", e.index, e.Name, jsonprof.Detail(err))
			}
		}
		pt := rawText(e.Pid) + ":" + rawText(e.Tid)
		id := rawText(e.ID)
		if id == "" {
			id = pt
		}
		switch e.Name {
		case "thread_name":
			tp.threads[pt] = args.Name
		case "process_name":
			tp.procs[rawText(e.Pid)] = args.Name
		case "CpuProfile":
			if args.Data == nil || args.Data.CPUProfile == nil {
				skipped++
				continue
			}
			tp.declare(id, pt, args.Data.CPUProfile)
		case "Profile":
			p := &cpuprofile.Profile{}
			if args.Data != nil {
				p.StartTime = args.Data.StartTime
			}
			tp.declare(id, pt, p)
		case "ProfileChunk":
			p := tp.byID[id]
			if p == nil || args.Data == nil {
				skipped++
				continue
			}
			addChunk(p, args.Data)
		}
	}
	if skipped > 0 {
		b.Warn(fmt.Sprintf("skipped %d CPU profile events without data or without a declared profile", skipped))
	}
	if len(tp.order) == 0 {
		return nil, fmt.Errorf("expected a CPU profile: the trace's %d events have CPU profile chunks but no Profile or CpuProfile event declaring them", len(events))
	}
	return tp, nil
}

func (tp *traceProfiles) declare(id, pt string, p *cpuprofile.Profile) {
	if _, ok := tp.byID[id]; !ok {
		tp.order = append(tp.order, id)
	}
	tp.byID[id] = p
	tp.pidTid[id] = pt
}

// addChunk appends a ProfileChunk's nodes, samples and deltas to p.
func addChunk(p *cpuprofile.Profile, d *chunkData) {
	if c := d.CPUProfile; c != nil {
		p.Nodes = append(p.Nodes, c.Nodes...)
		p.Samples = append(p.Samples, c.Samples...)
	}
	p.TimeDeltas = append(p.TimeDeltas, d.TimeDeltas...)
	if d.StartTime != nil {
		p.StartTime = d.StartTime
	}
	if d.EndTime != nil {
		p.EndTime = d.EndTime
	}
}

// span returns the earliest start and the latest end of the profiles, in
// nanoseconds on the trace clock (cpuprofile.Span), and what was recovered
// where a profile lacks a start or an end time.
func (tp *traceProfiles) span() (start, end int64, notes []string) {
	for i, id := range tp.order {
		s, e, note := tp.byID[id].Span()
		if i == 0 || jsonprof.Nanos(s) < start {
			start = jsonprof.Nanos(s)
		}
		if i == 0 || jsonprof.Nanos(e) > end {
			end = jsonprof.Nanos(e)
		}
		if note != "" && len(tp.byID[id].Samples) > 0 {
			notes = append(notes, "profile "+id+": "+note)
		}
	}
	return start, end, notes
}

// describe gives b the thread of profile id, with its ids and process, and
// returns its label.
func (tp *traceProfiles) describe(b *analysis.Builder, id string) string {
	pid, tid, _ := strings.Cut(tp.pidTid[id], ":")
	t := analysis.Thread{Name: tp.label(id), ID: tid, Process: tp.procs[pid], PID: pid}
	b.DescribeThread(t)
	return t.Name
}

// label names the thread of profile id: its thread name, else pid:tid; a
// name shared by several profiles gets the profile id appended.
func (tp *traceProfiles) label(id string) string {
	pt := tp.pidTid[id]
	l := tp.threads[pt]
	if l == "" {
		l = pt
	}
	for _, o := range tp.order {
		if o != id && (tp.threads[tp.pidTid[o]] == l || tp.pidTid[o] == l) {
			return l + " " + id
		}
	}
	return l
}

// rawText shows a JSON scalar without quotes ("0x1b", 1234); "" when absent.
func rawText(r json.RawMessage) string {
	s := strings.TrimSpace(string(r))
	if s == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(r, &str) == nil {
		return str
	}
	return s
}

// flexFloat is a number that some writers quote ("ts": "123.4").
type flexFloat float64

// UnmarshalJSON reads a number or a string holding one.
func (f *flexFloat) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		var err error
		if s, err = strconv.Unquote(s); err != nil {
			return err
		}
	}
	if s == "null" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("expected a number, found %.20s", b)
	}
	*f = flexFloat(v)
	return nil
}
