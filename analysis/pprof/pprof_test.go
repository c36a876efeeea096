package pprof

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
)

// TestPprofInlineLabels builds a pprof profile in Go: one location holding
// an inlined call (two lines), string and numeric labels, metadata; the
// loader must keep inlined frames as frames, root first, and keep it all.
func TestPprofInlineLabels(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: "x.go", StartLine: int64(10 * id)}
	}
	mainF, outer, inner := fn(1, "main.main"), fn(2, "main.outer"), fn(3, "main.inner")
	m := &profile.Mapping{ID: 1, File: "/bin/prog"}
	l1 := &profile.Location{ID: 1, Mapping: m, Address: 0x10, Line: []profile.Line{{Function: mainF, Line: 12}}}
	// pprof lists a location's lines innermost first: inner was inlined into outer.
	l2 := &profile.Location{ID: 2, Mapping: m, Address: 0x20, Line: []profile.Line{{Function: inner, Line: 31}, {Function: outer, Line: 22}}}
	l3 := &profile.Location{ID: 3, Mapping: m, Address: 0x30} // no symbols
	pp := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		DefaultSampleType: "alloc_objects",
		PeriodType:        &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:            524288,
		TimeNanos:         1_700_000_000_000_000_000,
		DurationNanos:     int64(3 * time.Second),
		Comments:          []string{"hello"},
		Mapping:           []*profile.Mapping{m},
		Location:          []*profile.Location{l1, l2, l3},
		Function:          []*profile.Function{mainF, outer, inner},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l2, l1}, Value: []int64{2, 64},
				Label: map[string][]string{"goroutine": {"7"}}, NumLabel: map[string][]int64{"bytes": {32}}, NumUnit: map[string][]string{"bytes": {"bytes"}}},
			{Location: []*profile.Location{l3, l1}, Value: []int64{1, 16}},
		},
	}
	var buf bytes.Buffer
	if err := pp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := analysis.Parse(context.Background(), "inline.pb.gz", buf.Bytes(), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(s int) []string {
		var out []string
		for _, f := range p.Stacks.At(p.Samples[s].Stack) {
			out = append(out, p.Frames[f].Name)
		}
		return out
	}
	if got, want := names(0), []string{"main.main", "main.outer", "main.inner"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stack 0 = %v, want %v", got, want)
	}
	if got, want := names(1), []string{"main.main", "[prog]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stack 1 = %v, want %v", got, want)
	}
	if f := p.Frames[p.Stacks.At(p.Samples[0].Stack)[1]]; f != (analysis.Frame{Name: "main.outer", File: "x.go", Lib: "/bin/prog"}) {
		t.Errorf("inlined caller frame = %+v, want main.outer in x.go, in the mapping /bin/prog", f)
	}
	q := p.At(analysis.Addresses)
	if f := q.Frames[q.Stacks.At(q.Samples[0].Stack)[1]]; f != (analysis.Frame{Name: "main.outer", File: "x.go", Line: 22, Addr: 0x20, Lib: "/bin/prog"}) {
		t.Errorf("inlined caller frame at addresses = %+v, want main.outer x.go:22 at 0x20", f)
	}
	s := p.Samples[0]
	if !reflect.DeepEqual(p.Labels(&s), map[string][]string{"goroutine": {"7"}, "bytes": {"32 bytes"}}) || p.Thread(&s) != "goroutine 7" ||
		!reflect.DeepEqual(p.NumLabelUnits, map[string]string{"bytes": "bytes"}) {
		t.Errorf("labels = %v thread %q units %v, want goroutine 7 and bytes 32 (numeric, in bytes)", p.Labels(&s), p.Thread(&s), p.NumLabelUnits)
	}
	got := []any{p.DefaultValue, p.Period, p.PeriodType, p.Start, p.Duration, p.Comment[0], p.Lang, p.Timed}
	want := []any{0, int64(524288), analysis.ValueType{Type: "space", Unit: "bytes"}, time.Unix(1_700_000_000, 0).UTC(), 3 * time.Second, "hello", analysis.LangGo, false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("metadata = %v, want %v", got, want)
	}
}

// TestThreadLabelPriority names the thread of a sample from its labels, in
// the order thread_name, thread, goroutine, thread_id, stated here rather
// than taken from the loader (the go tool pprof oracle has no threads to
// compare with). Both decoders are checked: the fast one, and the
// conversion of a profile.ParseData result.
func TestThreadLabelPriority(t *testing.T) {
	cases := []struct {
		labels map[string][]string
		want   string
	}{
		{map[string][]string{"thread_id": {"7"}, "goroutine": {"12"}, "thread": {"worker"}, "thread_name": {"main"}}, "main (tid 7)"},
		{map[string][]string{"thread_id": {"7"}, "goroutine": {"12"}, "thread": {"worker"}}, "worker (tid 7)"},
		{map[string][]string{"thread_id": {"7"}, "goroutine": {"12"}}, "goroutine 12 (tid 7)"},
		{map[string][]string{"goroutine": {"12"}}, "goroutine 12"},
		{map[string][]string{"thread_id": {"7"}, "other": {"x"}}, "tid 7"},
		{map[string][]string{"other": {"x"}}, ""},
	}
	fn := &profile.Function{ID: 1, Name: "main.main"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}}}
	pp := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
	for _, c := range cases {
		pp.Sample = append(pp.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{1}, Label: c.labels})
	}
	var buf bytes.Buffer
	if err := pp.WriteUncompressed(&buf); err != nil {
		t.Fatal(err)
	}
	fast, ok, err := decode(&analysis.Input{Name: "threads.pb", Data: buf.Bytes()})
	if !ok || err != nil {
		t.Fatalf("decode declined: %v", err)
	}
	parsed, err := profile.ParseData(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	slow := fromProfile(&analysis.Input{Name: "threads.pb"}, parsed)
	for name, p := range map[string]*analysis.Profile{"decode": fast, "fromProfile": slow} {
		for i, c := range cases {
			if got := p.Thread(&p.Samples[i]); got != c.want {
				t.Errorf("%s: sample with labels %v: thread %q, want %q", name, c.labels, got, c.want)
			}
			if th, id := p.ThreadOf(&p.Samples[i]), c.labels["thread_id"]; id != nil && (th == nil || th.ID != id[0]) {
				t.Errorf("%s: sample with labels %v: thread %+v, want id %q", name, c.labels, th, id[0])
			}
		}
	}
}

// TestGuessLang: a profile's language is Go when any frame is Go's
// (runtime., main.), else the JVM when any frame is the Java platform's
// (java., javax., sun., jdk., dotted or with slashes), else C++ for "::";
// a name that only starts with those letters ("javascript", "sunrise") or
// is the bare word says nothing.
func TestGuessLang(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  analysis.Lang
	}{
		{[]string{"main.main"}, analysis.LangGo},
		{[]string{"java/lang/Thread.run", "runtime.main"}, analysis.LangGo},
		{[]string{"java/lang/Thread.run"}, analysis.LangJVM},
		{[]string{"sun/nio/ch/EPoll.wait", "std::sort"}, analysis.LangJVM},
		{[]string{"sun.misc.Unsafe.park"}, analysis.LangJVM},
		{[]string{"std::vector<int>::push_back"}, analysis.LangCpp},
		{[]string{"java"}, analysis.LangAuto},
		{[]string{"javascript", "sunrise", "jdkfoo"}, analysis.LangAuto},
	} {
		if got := guessLang(c.names); got != c.want {
			t.Errorf("guessLang(%q) = %v, want %v", c.names, got, c.want)
		}
	}
}

// TestLegacyTextErrorLine: an error in a legacy text profile names the line
// that profile.Parse quotes (the heapz sample line "0 0 @ 0", line 2, whose
// second value must not be zero), and no byte offset.
func TestLegacyTextErrorLine(t *testing.T) {
	data, err := os.ReadFile("testdata/pprof-fuzz-7e3c9248")
	if err != nil {
		t.Fatal(err)
	}
	_, err = analysis.Parse(context.Background(), "heapz", data, analysis.LoadOptions{})
	var se *analysis.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Offset >= 0 || !strings.Contains(err.Error(), "heapz: line 2: expected a pprof legacy text profile") {
		t.Errorf("error %v, want a SyntaxError at line 2 without a byte offset", err)
	}
}

// TestProtobufErrorPlace: a protobuf profile that profile.ParseData refuses
// names the byte of its first malformed field (here byte 0, a field of wire
// type 7), or no byte when the wire format is sound and the content is not
// (a sample at a location that does not exist).
func TestProtobufErrorPlace(t *testing.T) {
	bad := labelProfile([][]labelWire{nil})
	bad = append(bad, message(func(p wire) { p.bytes(2, message(func(p wire) { p.varint(1, 99); p.varint(2, 1) })) })...)
	for _, c := range []struct {
		name   string
		data   []byte
		offset int64
	}{
		{"wire.pb", append([]byte{0x0f}, labelProfile([][]labelWire{nil})...), 0},
		{"content.pb", bad, -1},
	} {
		_, err := analysis.Parse(context.Background(), c.name, c.data, analysis.LoadOptions{Format: "pprof"})
		var se *analysis.SyntaxError
		if !errors.As(err, &se) || se.Offset != c.offset || se.Line != 0 {
			t.Errorf("%s: error %v, want a SyntaxError at offset %d", c.name, err, c.offset)
		}
	}
}
