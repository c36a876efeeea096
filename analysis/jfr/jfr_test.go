package jfr

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
	"github.com/proflens/proflens/internal/testtool"
)

// kafka is an async-profiler recording of a Kafka broker with CPU, lock
// and allocation events (see testdata/README.md).
const kafka = "testdata/kafka-cpu-lock-alloc.jfr.gz"

// TestKafka: the totals of each value type are the event counts that the
// JDK's own tool prints (`jfr summary`: 582 jdk.ExecutionSample, 7972
// jdk.ObjectAllocationInNewTLAB + 2238 jdk.ObjectAllocationOutsideTLAB,
// 1773 jdk.JavaMonitorEnter, 435 jdk.ThreadPark; 1 chunk, 10 s).
func TestKafka(t *testing.T) {
	p := load(t, kafka)
	testprof.Check(t, kafka, p)
	want := map[string]int64{"samples": 582, "alloc_objects": 7972 + 2238, "lock_count": 1773, "park_count": 435}
	for typ, n := range want {
		if i := p.ValueIndex(typ); i < 0 || p.Total(i) != n {
			t.Errorf("total %s = %d (index %d), want %d", typ, p.Total(max(i, 0)), i, n)
		}
	}
	if len(p.ValueTypes) != 7 || p.ValueTypes[p.DefaultValue].Type != "samples" {
		t.Errorf("value types %v, default %d; want 7, samples first", p.ValueTypes, p.DefaultValue)
	}
	if !p.Timed || len(p.Samples) != 582+10210+1773+435 || p.Duration.Round(time.Second) != 10*time.Second {
		t.Errorf("timed %v, %d samples, duration %v; want timed, 12,000 samples, 10s", p.Timed, len(p.Samples), p.Duration)
	}
	if got := p.Start.Format(time.RFC3339); got != "2023-08-03T04:53:03Z" {
		t.Errorf("start = %s, want 2023-08-03T04:53:03Z (jfr summary)", got)
	}
	if len(testprof.Threads(p)) < 10 {
		t.Errorf("threads = %q, want the broker's threads", testprof.Threads(p))
	}
}

// TestFastSlow: a file of three chunks (async-profiler's and the JDK's),
// whose constant pools are separate; `jfr summary` counts 1012
// jdk.ExecutionSample and 6 jdk.ObjectAllocationSample, and the program's
// FastSlow.fib runs under FastSlow.main.
func TestFastSlow(t *testing.T) {
	name := "testdata/fastslow-3chunks.jfr.gz"
	p := load(t, name)
	testprof.Check(t, name, p)
	if p.Total(0) != 1012 || p.Total(p.ValueIndex("alloc_objects")) != 6 || !p.Timed {
		t.Errorf("samples %d, allocations %d, timed %v; want 1012, 6, true", p.Total(0), p.Total(p.ValueIndex("alloc_objects")), p.Timed)
	}
	// The chunks' headers: the JDK's third chunk starts first, 4 ms before
	// async-profiler's first; the second ends last. (`jfr summary` says
	// "Duration: 20 s": it adds the chunks' durations, which overlap.)
	if p.Start.UnixNano() != 1705403336083533683 || p.Duration != 1705403346095979000+3441000-1705403336083533683 {
		t.Errorf("start %d, duration %d ns; want 1705403336083533683, 10015886317", p.Start.UnixNano(), p.Duration)
	}
	seen := map[string]bool{}
	for _, f := range p.Frames {
		seen[f.Name] = true
	}
	for _, m := range []string{"FastSlow.main", "FastSlow.fib", "java.lang.Thread.run"} {
		if !seen[m] {
			t.Errorf("no frame %s", m)
		}
	}
}

// TestAgainstJFRTool: for every top frame, the number of execution samples
// equals what `jfr print --events jdk.ExecutionSample` lists, when the JDK's
// jfr tool is installed.
func TestAgainstJFRTool(t *testing.T) {
	jfr := lookTool(t, "jfr")
	raw := gunzipTo(t, kafka)
	p := load(t, kafka)
	out, err := exec.Command(jfr, "print", "--events", "jdk.ExecutionSample", raw).Output()
	if err != nil {
		t.Fatal(err)
	}
	compareTops(t, p, topsOfPrint(out))
}

// TestWeightsAgainstJFRTool: the totals of the second value of each kind
// are what `jfr print --json` lists for its events: alloc_space the new
// TLAB's size (tlabSize) of an allocation in a new TLAB and the
// allocationSize of one outside, lock_time and park_time the events'
// durations, to the nanosecond. No event's stack is truncated (jfr print
// says so of each), so the loader warns of none.
func TestWeightsAgainstJFRTool(t *testing.T) {
	jfr := lookTool(t, "jfr")
	raw := gunzipTo(t, kafka)
	p := load(t, kafka)
	out, err := exec.Command(jfr, "print", "--json", "--stack-depth", "1", "--events",
		"jdk.ExecutionSample,jdk.ObjectAllocationInNewTLAB,jdk.ObjectAllocationOutsideTLAB,jdk.JavaMonitorEnter,jdk.ThreadPark", raw).Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Recording struct {
			Events []struct {
				Type   string
				Values struct {
					Duration       string
					TLABSize       int64 `json:"tlabSize"`
					AllocationSize int64 `json:"allocationSize"`
					StackTrace     struct{ Truncated bool }
				}
			}
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	want, truncated := map[string]int64{}, 0
	for _, e := range doc.Recording.Events {
		if e.Values.StackTrace.Truncated {
			truncated++
		}
		switch v := e.Values; e.Type {
		case "jdk.ExecutionSample":
		case "jdk.ObjectAllocationInNewTLAB":
			want["alloc_space"] += v.TLABSize
		case "jdk.ObjectAllocationOutsideTLAB":
			want["alloc_space"] += v.AllocationSize
		default: // an ISO 8601 duration, "PT0.000022981S"
			d, err := time.ParseDuration(strings.ToLower(strings.TrimPrefix(v.Duration, "PT")))
			if err != nil {
				t.Fatalf("%s duration %q: %v", e.Type, v.Duration, err)
			}
			want[map[string]string{"jdk.JavaMonitorEnter": "lock_time", "jdk.ThreadPark": "park_time"}[e.Type]] += int64(d)
		}
	}
	if len(want) != 3 || len(doc.Recording.Events) != 582+7972+2238+1773+435 || truncated != 0 {
		t.Fatalf("jfr print: %d events, totals %v, %d truncated stacks", len(doc.Recording.Events), want, truncated)
	}
	for typ, n := range want {
		if i := p.ValueIndex(typ); i < 0 || p.Total(i) != n {
			t.Errorf("total %s = %d (index %d), jfr print %d", typ, p.Total(max(i, 0)), i, n)
		}
	}
	if len(p.Warnings) > 0 {
		t.Errorf("warnings %q, want none", p.Warnings)
	}
}

// TestRecorded records a small Java program with the JDK's flight recorder
// (skipped without a JDK) and checks the loader against `jfr print`: the
// count of execution samples per top frame, the threads, and the monitor
// contention the program makes.
func TestRecorded(t *testing.T) {
	javac, java, jfr := lookTool(t, "javac"), lookTool(t, "java"), lookTool(t, "jfr")
	rec := record(t, javac, java)
	p := load(t, rec)
	testprof.Check(t, rec, p)
	out, err := exec.Command(jfr, "print", "--events", "jdk.ExecutionSample", rec).Output()
	if err != nil {
		t.Fatal(err)
	}
	tops := topsOfPrint(out)
	compareTops(t, p, tops)
	if tops["Busy.spin"] < 10 {
		t.Errorf("jfr print lists %d samples in Busy.spin, want the program's busy loop", tops["Busy.spin"])
	}
	locks, err := exec.Command(jfr, "print", "--events", "jdk.JavaMonitorEnter", rec).Output()
	if err != nil {
		t.Fatal(err)
	}
	if n, i := int64(bytes.Count(locks, []byte("jdk.JavaMonitorEnter {"))), p.ValueIndex("lock_count"); n > 0 && (i < 0 || p.Total(i) != n) {
		t.Errorf("lock_count = %d (index %d), want %d (jfr print)", p.Total(max(i, 0)), i, n)
	}
	if th := testprof.Threads(p); !slices.Contains(th, "main") {
		t.Errorf("threads = %q, want main", th)
	}
}

// compareTops checks the execution samples per top frame against want.
func compareTops(t *testing.T, p *analysis.Profile, want map[string]int64) {
	t.Helper()
	got := map[string]int64{}
	for i := range p.Samples {
		s := &p.Samples[i]
		if p.Value(s, 0) == 0 {
			continue
		}
		top := ""
		if st := p.Stacks.At(s.Stack); len(st) > 0 {
			top = p.Frames[st[len(st)-1]].Name
		}
		got[top]++
	}
	if !maps.Equal(got, want) {
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if got[k] != want[k] {
				t.Errorf("top frame %q: %d samples, jfr print says %d", k, got[k], want[k])
			}
		}
		t.Fatalf("%d top frames, jfr print lists %d", len(got), len(want))
	}
}

// lambda is the JVM's generated lambda class suffix, which the loader
// folds (as jfr-parser's ProcessSymbols does) so that runs compare.
var lambda = regexp.MustCompile(`\$\$Lambda\$?\d*[./](0x)?[0-9a-f]+`)

// topsOfPrint counts the events of `jfr print` per top frame, named as the
// loader names frames: without the parameter list and line, a frame of no
// class without jfr's leading dot.
func topsOfPrint(out []byte) map[string]int64 {
	tops := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "stackTrace = null" {
			tops[""]++
		}
		if line != "stackTrace = [" || !sc.Scan() {
			continue
		}
		f := strings.TrimSpace(sc.Text())
		if i := strings.LastIndex(f, " line: "); i >= 0 {
			f = f[:i]
		}
		if i := strings.LastIndexByte(f, '('); i >= 0 {
			f = f[:i]
		}
		f = lambda.ReplaceAllString(strings.TrimPrefix(f, "."), "$$$$Lambda_")
		tops[f]++
	}
	return tops
}

func load(t *testing.T, name string) *analysis.Profile {
	t.Helper()
	p, err := analysis.Load(context.Background(), name, analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "jfr" || p.Lang != analysis.LangJVM {
		t.Fatalf("format %s, lang %v; want jfr, JVM", p.Format, p.Lang)
	}
	return p
}

func lookTool(t *testing.T, name string) string {
	return testtool.Need(t, name)
}

// TestErrors: damaged recordings give errors naming the byte and what was
// expected.
func TestErrors(t *testing.T) {
	chunk := secondChunk(t)
	spoilt := append([]byte{}, chunk...)
	spoilt[headerSize+1] ^= 0xff // inside the first event, before the metadata
	for _, c := range []struct {
		data []byte
		want string
	}{
		{chunk[:40], "in: byte 0: expected a JFR chunk header of 68 bytes, found 40"},
		{chunk[:1000], "in: byte 8: expected a chunk size between 68 and the 1000 bytes left, found 15046"},
		{headerOnly(chunk), "in: byte 16: expected the offsets of the constant pool and metadata inside the chunk of 68 bytes, found 7398 and 68"},
		// A pool right after the header is inside the chunk: it is read,
		// and here it is the metadata event, whose first fields are no pool's.
		{poolAt(chunk, uint64(len(chunk))), "in: byte 16: expected the offsets of the constant pool and metadata inside the chunk of 15046 bytes, found 15046 and 68"},
		{metaAt(chunk, uint64(len(chunk))), "in: byte 16: expected the offsets of the constant pool and metadata inside the chunk of 15046 bytes, found 7398 and 15046"},
		{poolAt(chunk, headerSize), "in: byte 207: expected a valid JFR chunk (chunk 1 of 1): constant pool: expected a type of the metadata, found 118"},
		{append(append([]byte{}, chunk...), "FLR?"...), "in: byte 15046: expected a JFR chunk header of 68 bytes, found 4"},
		{append(append([]byte{}, chunk...), bytes.Repeat([]byte("x"), 80)...), `in: byte 15046: expected a JFR chunk ("FLR\0"), found "xxxx"`},
	} {
		_, err := analysis.Parse(context.Background(), "in", c.data, analysis.LoadOptions{Format: "jfr"})
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%d bytes) error = %v, want %s", len(c.data), err, c.want)
		}
		testprof.CheckError(t, "in", err)
	}
	_, err := analysis.Parse(context.Background(), "in", spoilt, analysis.LoadOptions{Format: "jfr"})
	if err != nil {
		testprof.CheckError(t, "in", err)
	}
}

// headerOnly is chunk's header alone, its size set to the header's 68
// bytes: a whole header, whose offsets then lie outside the chunk.
func headerOnly(chunk []byte) []byte {
	h := append([]byte(nil), chunk[:headerSize]...)
	binary.BigEndian.PutUint64(h[8:], headerSize)
	return h
}

// poolAt is chunk with its header's constant pool offset set to off.
func poolAt(chunk []byte, off uint64) []byte {
	c := append([]byte(nil), chunk...)
	binary.BigEndian.PutUint64(c[16:], off)
	return c
}

// metaAt is chunk with its header's metadata offset set to off.
func metaAt(chunk []byte, off uint64) []byte {
	c := append([]byte(nil), chunk...)
	binary.BigEndian.PutUint64(c[24:], off)
	return c
}

// A chunk of another JFR version says which version it is and which are
// read.
func TestVersion(t *testing.T) {
	head := append([]byte("FLR\x00\x00\x00\x00\x09"), make([]byte, 120)...) // JFR 0.9's header starts so
	_, err := analysis.Parse(context.Background(), "old.jfr", head, analysis.LoadOptions{})
	want := "old.jfr: byte 4: a JFR chunk of version 0.9 (Oracle JDK 7 and 8): proflens reads JFR version 2"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}
