// Package gotrace reads the "gotrace" format: a Go execution trace (runtime/trace, Go 1.11 and
// later) whose CPU samples (EventStackSample, present when the CPU profiler
// ran during the trace, from Go 1.19 on) become timestamped samples. Each sample is on its
// goroutine's thread ("g12"; "m3" when it ran outside a goroutine) and
// carries the label "region" naming the innermost runtime/trace region open
// on its goroutine, which a program can use to mark its own phases.
package gotrace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"golang.org/x/exp/trace"

	"github.com/proflens/proflens/analysis"
)

func init() {
	analysis.RegisterFormat(analysis.Format{
		Name:     "gotrace",
		Priority: 5, // before pprof, which takes any binary input
		Sniff:    sniff,
		Parse:    parse,
	})
}

// sniff recognises the header "go 1.xx trace".
func sniff(head []byte) bool {
	rest, ok := bytes.CutPrefix(head, []byte("go 1."))
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && i < 3 && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 0 && bytes.HasPrefix(rest[i:], []byte(" trace"))
}

// parse reads a Go execution trace. Sample times are nanoseconds
// since the trace's first event; Start is its wall-clock time when the
// trace has a clock snapshot (Go 1.25 and later).
func parse(in *analysis.Input) (p *analysis.Profile, err error) {
	name := in.Name
	defer func() {
		// x/exp/trace checks its input, but it is generated code outside
		// this project: a panic on malformed bytes becomes an error.
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%s: malformed go trace (the trace reader failed: %v)", name, r)
		}
	}()
	r, err := trace.NewReader(bytes.NewReader(in.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: go trace header: %w", name, err)
	}
	g := &goTrace{b: in.NewBuilder(analysis.ValueType{Type: "samples", Unit: "count"}), regions: map[trace.GoID][]string{}, labels: map[string]map[string][]string{}}
	g.b.Profile().Lang = analysis.LangGo
	for n := 0; n&4095 != 4095 || in.Context().Err() == nil; n++ {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: go trace event %d: %w", name, n, err)
		}
		g.event(ev)
	}
	p = g.b.Profile()
	if len(p.Memory) > 0 {
		p.MemorySource = analysis.MemoryTraced
	}
	if g.heap.bad > 0 {
		g.b.Warn(fmt.Sprintf("%d batches of heap types could not be read: their objects have no type", g.heap.bad))
	}
	if len(p.Samples) == 0 && len(p.Memory) == 0 {
		return nil, fmt.Errorf("%s: %s", name, noSamples(in.Data))
	}
	p.Duration = g.last.Sub(g.t0)
	p.Comment = append(p.Comment, fmt.Sprintf("go execution trace: %d CPU samples", len(p.Samples)))
	return g.b.Finish(), nil
}

// cpuSamplesSince is the Go minor version from which execution traces hold
// the CPU profiler's samples (EvCPUSample, Go 1.19).
const cpuSamplesSince = 19

// noSamples says why a trace has no CPU samples, by the Go version its
// header names.
func noSamples(data []byte) string {
	v, _, _ := bytes.Cut(bytes.TrimPrefix(data, []byte("go 1.")), []byte(" "))
	minor, err := strconv.Atoi(string(v))
	if err == nil && minor < cpuSamplesSince {
		return fmt.Sprintf("go trace has no CPU samples: it was written by Go 1.%d, and Go writes the CPU profiler's samples into execution traces from Go 1.%d on; load the program's CPU profile (pprof) instead, or trace it with Go 1.%d or later with the CPU profiler running",
			minor, cpuSamplesSince, cpuSamplesSince)
	}
	return "go trace has no CPU samples: record it with the CPU profiler running (pprof.StartCPUProfile) during runtime/trace.Start (or with GODEBUG=traceallocfree=1, for its heap objects); Go writes the profiler's samples into execution traces from Go 1.19 on"
}

type goTrace struct {
	b       *analysis.Builder
	t0      trace.Time
	last    trace.Time
	started bool
	regions map[trace.GoID][]string        // open regions per goroutine, innermost last
	labels  map[string]map[string][]string // shared label maps per region type
	frames  []int32
	heap    heap // the AllocFree experiment's types and objects (memory.go)
}

func (g *goTrace) event(ev trace.Event) {
	if !g.started {
		g.t0, g.started = ev.Time(), true
	}
	g.last = ev.Time()
	switch ev.Kind() {
	case trace.EventSync:
		if s := ev.Sync(); s.ClockSnapshot != nil && g.b.Profile().Start.IsZero() {
			g.b.Profile().Start = s.ClockSnapshot.Wall.Add(-s.ClockSnapshot.Trace.Sub(g.t0))
		}
		g.heap.sync(ev.Sync())
	case trace.EventExperimental:
		g.heapEvent(ev)
	case trace.EventRegionBegin:
		id := ev.Goroutine()
		g.regions[id] = append(g.regions[id], ev.Region().Type)
	case trace.EventRegionEnd:
		g.endRegion(ev.Goroutine(), ev.Region().Type)
	case trace.EventStackSample:
		g.sample(ev)
	}
}

// endRegion closes the innermost open region of that type.
func (g *goTrace) endRegion(id trace.GoID, typ string) {
	open := g.regions[id]
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] == typ {
			g.regions[id] = slices.Delete(open, i, i+1)
			return
		}
	}
}

func (g *goTrace) sample(ev trace.Event) {
	g.frames = g.frames[:0]
	for f := range ev.Stack().Frames() {
		g.frames = append(g.frames, g.b.Frame(analysis.Frame{Name: f.Func, File: f.File, Line: int64(f.Line)}))
	}
	slices.Reverse(g.frames) // the trace lists the leaf first
	thread := "m" + strconv.FormatInt(int64(ev.Thread()), 10)
	var labels map[string][]string
	if id := ev.Goroutine(); id != trace.NoGoroutine {
		thread = "g" + strconv.FormatInt(int64(id), 10)
		if open := g.regions[id]; len(open) > 0 {
			labels = g.label(open[len(open)-1])
		}
	}
	g.b.Add(g.b.Stack(g.frames), []int64{1}, int64(ev.Time().Sub(g.t0)), true, thread, labels)
}

func (g *goTrace) label(region string) map[string][]string {
	l, ok := g.labels[region]
	if !ok {
		l = map[string][]string{"region": {region}}
		g.labels[region] = l
	}
	return l
}
