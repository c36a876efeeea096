// Package firefox reads the Firefox Profiler's formats: the Gecko format
// that Firefox writes (a meta object and threads whose samples, stacks and
// frames are tables of a schema and rows, with subprocesses under
// "processes"; also inside the old DevTools export, under "profile"), and
// the processed format that profiler.firefox.com saves and samply writes
// (meta.preprocessedProfileVersion: column tables per thread, or shared
// between threads from version 60 on).
//
// Every thread's samples are kept, labelled with the thread's name (and its
// process id when the profile has several processes; and its thread id, else
// its index, when several threads share the name), with its ids and its
// process's name where the processed format gives them, at their times in
// nanoseconds since meta.startTime, so that phases work. A sample weighs 1
// (samples/count) unless the samples carry weights: "tracing-ms" weights
// become wall/nanoseconds, "bytes" weights space/bytes. Markers, counters
// and allocations are ignored.
//
// JavaScript frames are named "fn url:line:col", as the V8 and Chrome
// loaders name them, with the url as the frame's file; other frames keep
// their label ("Startup::XRE_Main") or address ("0x100000f84"), an address
// in the processed format with its library ("libc.so.6+0x19974d", as samply
// writes unsymbolicated frames), so that one address in two libraries is
// two frames.
package firefox

import (
	"bytes"
	"encoding/json"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "firefox", Priority: 38, Sniff: sniff, Parse: parse})
}

// sniff takes a JSON object with keys that only the Firefox Profiler's
// formats have (a Gecko profile may start with a long list of libraries,
// whose breakpad ids are then the first sign), or the DevTools export,
// which starts with its label and duration.
func sniff(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	if bytes.HasPrefix(h, []byte(`{"label":`)) && bytes.Contains(h, []byte(`"duration":`)) {
		return true
	}
	for _, k := range []string{`"preprocessedProfileVersion"`, `"breakpadId"`, `"stackwalk"`, `"stackTable"`, `"pausedRanges"`} {
		if bytes.Contains(h, []byte(k)) {
			return true
		}
	}
	return false
}

// top is what both formats and the DevTools wrapper share at the top.
type top struct {
	Meta struct {
		StartTime                  float64 `json:"startTime"`
		Interval                   float64 `json:"interval"`
		PreprocessedProfileVersion *int    `json:"preprocessedProfileVersion"`
	} `json:"meta"`
	Threads []json.RawMessage `json:"threads"`
	Profile json.RawMessage   `json:"profile"` // the DevTools export's wrapper
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	data := in.Data
	var t top
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, jsonprof.Error(in.Name, data, "a Firefox profile object", err)
	}
	if t.Threads == nil && len(t.Profile) > 0 && t.Profile[0] == '{' {
		data = t.Profile
		if err := json.Unmarshal(data, &t); err != nil {
			return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: "profile: expected a Gecko profile: " + jsonprof.Detail(err)}
		}
	}
	c := newCollector(in)
	var err error
	if t.Meta.PreprocessedProfileVersion != nil || processedThreads(t.Threads) {
		err = readProcessed(c, data)
	} else {
		err = readGecko(c, data)
	}
	if err != nil {
		return nil, err
	}
	return c.finish(t.Meta.StartTime, t.Meta.Interval)
}

// processedThreads reports whether threads are in the processed format's
// columns (the version-less early processed profiles).
func processedThreads(threads []json.RawMessage) bool {
	if len(threads) == 0 {
		return false
	}
	var th struct {
		StringArray json.RawMessage `json:"stringArray"`
	}
	return json.Unmarshal(threads[0], &th) == nil && th.StringArray != nil
}
