// Package pprof reads pprof profiles: the protobuf format (gzipped or not) and the legacy text
// and binary formats that profile.Parse reads. A location's lines become
// frames root → leaf, inlined frames included. A frame keeps its line's
// number and its location's address: Parse merges the frames of one
// function (analysis.Granularity), and At gives them back. A location without
// symbols is named like `go tool pprof` names it: "[" + the mapping's base
// name + "]", or "<unknown>".
//
// Write writes a profile back as pprof.
package pprof

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "pprof", Priority: 10, Sniff: sniff, Parse: parse, Gzipped: gzipped})
}

// pprofLegacyHeads start the legacy text formats profile.Parse reads.
var pprofLegacyHeads = []string{
	"--- contention", "--- heapz", "--- threadz", "--- heap", "--- mutex",
	"heap profile:", "heap_v2/", "threadcreate profile:", "goroutine profile:",
}

func sniff(head []byte) bool {
	if len(head) == 0 {
		return false
	}
	if !text.Is(head) {
		return true
	}
	for _, h := range pprofLegacyHeads {
		if bytes.HasPrefix(head, []byte(h)) {
			return true
		}
	}
	return false
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name, data := in.Name, in.Data
	if p, ok, err := decode(in); ok || err != nil { // fast path, same result (decode.go)
		return p, err
	}
	pp, err := profile.ParseData(data)
	if err != nil {
		return nil, pprofError(name, data, err)
	}
	if len(pp.SampleType) == 0 {
		return nil, pprofError(name, data, errors.New("no sample types"))
	}
	return fromProfile(in, pp), nil
}

// pprofError places a profile.ParseData error: a byte offset for broken
// protobuf wire data, a line for legacy text.
func pprofError(name string, data []byte, err error) error {
	if text.Is(head4k(data)) {
		line := lineOf(data, err.Error())
		if line == 0 {
			line = 1 // the header decides which legacy format it is
		}
		return &analysis.SyntaxError{File: name, Line: line, Offset: -1, Msg: "expected a pprof legacy text profile", Err: err}
	}
	if off, msg := protoCheck(data); off >= 0 {
		return &analysis.SyntaxError{File: name, Offset: off, Msg: msg, Err: err}
	}
	return &analysis.SyntaxError{File: name, Offset: -1, Msg: "expected a valid pprof protobuf profile", Err: err}
}

func head4k(data []byte) []byte {
	if len(data) > 4096 {
		return data[:4096]
	}
	return data
}

// lineOf returns the number of the first non-trivial line of data quoted in
// msg, or 0.
func lineOf(data []byte, msg string) int {
	r := text.NewReader(nil, data)
	for r.Next() {
		l := strings.TrimSpace(string(r.Line))
		if len(l) >= 3 && strings.Contains(msg, l) {
			return r.N
		}
	}
	return 0
}

// fromProfile converts a parsed pprof profile into the model.
func fromProfile(in *analysis.Input, pp *profile.Profile) *analysis.Profile {
	types := make([]analysis.ValueType, len(pp.SampleType))
	for i, st := range pp.SampleType {
		types[i] = analysis.ValueType{Type: st.Type, Unit: st.Unit}
	}
	b := in.NewBuilder(types...)
	p := b.Profile()
	p.Comment = append([]string(nil), pp.Comments...)
	p.DefaultValue, _ = pp.SampleIndexByName("")
	if p.DefaultValue < 0 {
		p.DefaultValue = 0
	}
	p.Period = pp.Period
	if pp.PeriodType != nil {
		p.PeriodType = analysis.ValueType{Type: pp.PeriodType.Type, Unit: pp.PeriodType.Unit}
	}
	if pp.TimeNanos != 0 {
		p.Start = time.Unix(0, pp.TimeNanos).UTC()
	}
	p.Duration = time.Duration(pp.DurationNanos)

	locFrames := make(map[*profile.Location][]int32, len(pp.Location))
	var stack []int32
	names := make([]string, 0, len(pp.Function))
	for _, s := range pp.Sample {
		stack = stack[:0]
		for i := len(s.Location) - 1; i >= 0; i-- {
			loc := s.Location[i]
			fr, ok := locFrames[loc]
			if !ok {
				fr = locationFrames(b, loc)
				locFrames[loc] = fr
			}
			stack = append(stack, fr...)
		}
		for k := range s.NumLabel {
			for i := range s.NumLabel[k] {
				unit := ""
				if i < len(s.NumUnit[k]) {
					unit = s.NumUnit[k][i]
				}
				b.NumLabel(k, unit)
			}
		}
		addSample(b, b.Stack(stack), s.Value, sampleLabels(s))
	}
	for _, f := range pp.Function {
		names = append(names, f.Name)
	}
	p.Lang = guessLang(names)
	return b.Finish()
}

// locationFrames interns the frames of one location, root-most (caller)
// first: pprof lists a location's lines innermost first.
func locationFrames(b *analysis.Builder, loc *profile.Location) []int32 {
	var lib string
	if m := loc.Mapping; m != nil {
		lib = m.File
	}
	if len(loc.Line) == 0 {
		name := "<unknown>"
		if lib != "" {
			name = "[" + filepath.Base(lib) + "]"
		}
		return []int32{b.Frame(analysis.Frame{Name: name, Addr: loc.Address, Lib: lib})}
	}
	out := make([]int32, 0, len(loc.Line))
	for i := len(loc.Line) - 1; i >= 0; i-- {
		f := analysis.Frame{Name: "<unknown>", Addr: loc.Address, Lib: lib}
		if fn := loc.Line[i].Function; fn != nil {
			f = analysis.Frame{Name: cmp.Or(fn.Name, "<unknown>"), File: fn.Filename, Line: loc.Line[i].Line, Addr: loc.Address, Lib: lib}
		}
		out = append(out, b.Frame(f))
	}
	return out
}

// sampleLabels merges string and numeric labels; numeric values are written
// in decimal, followed by their unit when the profile names one.
func sampleLabels(s *profile.Sample) map[string][]string {
	if len(s.Label) == 0 && len(s.NumLabel) == 0 {
		return nil
	}
	out := make(map[string][]string, len(s.Label)+len(s.NumLabel))
	for k, v := range s.Label {
		out[k] = append([]string(nil), v...)
	}
	for k, vs := range s.NumLabel {
		units := s.NumUnit[k]
		for i, v := range vs {
			str := fmt.Sprint(v)
			if i < len(units) && units[i] != "" {
				str += " " + units[i]
			}
			out[k] = append(out[k], str)
		}
	}
	return out
}

// addSample adds a sample with its labels, attributed to the thread they
// name (threadOf).
func addSample(b *analysis.Builder, stack int32, vals []int64, labels map[string][]string) {
	t := threadOf(labels)
	if t.Name != "" {
		b.DescribeThread(t)
	}
	b.Add(stack, vals, 0, false, t.Name, labels)
}

// threadOf reads a sample's thread from its labels, as agents write them:
// its name (thread_name, thread, else "goroutine N"), its id (thread_id, tid), its
// process (process_name, pid). A thread with a name and an id is called
// "name (tid ID)", one with an id only "tid ID".
func threadOf(labels map[string][]string) analysis.Thread {
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := labels[k]; len(v) > 0 && v[0] != "" {
				return v[0]
			}
		}
		return ""
	}
	t := analysis.Thread{Name: first("thread_name", "thread"), ID: first("thread_id", "tid"),
		Process: first("process_name"), PID: first("pid", "process_id")}
	if g := first("goroutine"); t.Name == "" && g != "" {
		t.Name = "goroutine " + g
	}
	switch {
	case t.ID != "" && t.Name != "":
		t.Name += " (tid " + t.ID + ")"
	case t.ID != "":
		t.Name = "tid " + t.ID
	}
	return t
}

// guessLang names the language of a profile's function names when they
// clearly belong to one, for the names whose shape says nothing (each frame
// is split by its own shape first, see analysis.Split): Go (runtime. or
// main. frames, import paths, "(*T)" methods), the JVM (java., javax.,
// sun., jdk. frames, dotted or with slashes as JFR converters write them),
// C++/Rust ("::"). A JVM profile holds HotSpot's C++ frames and a Go one
// cgo frames: Go wins over the JVM, which wins over C++.
func guessLang(names []string) analysis.Lang {
	var goish, cpp, jvm int
	for _, n := range names {
		switch g := analysis.Guess(n); {
		case strings.HasPrefix(n, "runtime.") || strings.HasPrefix(n, "main.") || g == analysis.LangGo:
			goish++
		case g == analysis.LangJVM || isJavaPlatform(n):
			jvm++
		case g == analysis.LangCpp:
			cpp++
		}
	}
	switch {
	case goish > 0:
		return analysis.LangGo
	case jvm > 0:
		return analysis.LangJVM
	case cpp > 0:
		return analysis.LangCpp
	}
	return analysis.LangAuto
}

// isJavaPlatform reports whether n is a method of the Java platform's
// packages: java., javax., sun., jdk. (or their slash forms).
func isJavaPlatform(n string) bool {
	for _, p := range []string{"java", "javax", "sun", "jdk"} {
		if rest, ok := strings.CutPrefix(n, p); ok && rest != "" && (rest[0] == '.' || rest[0] == '/') {
			return true
		}
	}
	return false
}
