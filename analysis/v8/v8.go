// Package v8 reads V8 CPU profiles (.cpuprofile): what Chrome DevTools, node
// --cpu-prof and the inspector protocol's Profiler.stop write. Two shapes
// are read: the current one (a flat "nodes" array with "callFrame"s and
// child ids, "samples" and "timeDeltas" in microseconds) and the old one of
// v8-profiler ("head" tree, "timestamps", startTime in seconds).
//
// Samples are kept in time order with their timestamps. Each sample counts 1
// and weighs the wall time until the next sample; the last weighs nothing.
// Frames are placed as speedscope and DevTools place them (see
// analysis/internal/cpuprofile).
//
// Sampling heap profiles (.heapprofile: a "head" tree of callFrames with
// selfSize) are read too, see heap.go.
//
// A frame is named "fn url:line:col" (1-based line and column), "fn :line:col"
// when the script has no URL, or just "fn" for VM pseudo-frames; an unnamed
// function is "(anonymous)". Spaces in a URL are written %20 in the name
// (the frame's File keeps the URL as given).
package v8

import (
	"bytes"
	"encoding/json"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/cpuprofile"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "v8", Priority: 40, Sniff: sniff, Parse: parse})
}

func sniff(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(h) == 0 || h[0] != '{' || bytes.Contains(h, []byte(`"traceEvents"`)) || bytes.Contains(h, []byte(`"ph"`)) {
		return false
	}
	has := func(s string) bool { return bytes.Contains(h, []byte(s)) }
	return has(`"callFrame"`) || has(`"timeDeltas"`) ||
		has(`"head"`) && has(`"functionName"`)
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	var p cpuprofile.Profile
	if err := json.Unmarshal(in.Data, &p); err != nil {
		return nil, jsonprof.Error(in.Name, in.Data, "a V8 CPU profile object", err)
	}
	if p.Head != nil && p.Head.HeapFrame != nil {
		return parseHeap(in, &p), nil
	}
	if p.Head != nil {
		p.FromOld()
	}
	b := in.NewBuilder(cpuprofile.ValueTypes...)
	prof := b.Profile()
	prof.Lang = analysis.LangJS
	prof.DefaultValue = 1
	prof.PeriodType = cpuprofile.ValueTypes[1]
	start, end, note := p.Span()
	origin := jsonprof.Nanos(start)
	out, err := p.Convert(b, "", origin, nil)
	if err != nil {
		return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: err.Error()}
	}
	jsonprof.AddCounted(b, out)
	cpuprofile.Note(b, out)
	prof.Duration = jsonprof.Duration(jsonprof.Nanos(end) - origin)
	if note != "" && len(out) > 0 {
		b.Note(note)
	}
	prof.Period = jsonprof.MeanPeriod(out)
	return b.Finish(), nil
}
