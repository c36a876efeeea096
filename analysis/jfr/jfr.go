// Package jfr reads JDK Flight Recorder recordings (.jfr), as the JDK
// (-XX:StartFlightRecording, jcmd JFR.dump) and async-profiler write them,
// through github.com/grafana/jfr-parser.
//
// The chunks must be of JFR version 2 (2.0, 2.1), the one the JDK writes from
// JDK 11 (and OpenJDK 8u262) on, and async-profiler; a chunk of another
// version (0.9, Oracle JDK 7 and 8's; 1.0) is an error that says so.
//
// A recording is a series of self-contained chunks, each with its own
// constant pools (stacks, methods, classes, threads); the loader walks the
// chunk headers itself, so that an error names the byte offset of the chunk
// it is in, and hands each chunk to a parser of its own. Each event of a
// kind the loader knows becomes one sample, with its thread and its time
// (nanoseconds since the earliest chunk's start), in time order, so that
// phases work:
//
//	jdk.ExecutionSample                  samples/count
//	profiler.WallClockSample             wall/count (the event's sample count)
//	jdk.ObjectAllocationInNewTLAB,       alloc_objects/count, alloc_space/bytes
//	jdk.ObjectAllocationOutsideTLAB,     (the TLAB's size for a new TLAB, as
//	jdk.ObjectAllocationSample           async-profiler counts it; the weight)
//	jdk.JavaMonitorEnter                 lock_count/count, lock_time/nanoseconds
//	jdk.ThreadPark                       park_count/count, park_time/nanoseconds
//
// Only the value types whose events the recording holds are kept; the
// default is the first of them in this order. Frames are methods named
// "pkg.Class.method" (the class's slashes become dots, as the JDK's jfr tool
// prints them; native frames keep their symbol); line numbers are dropped,
// as the hprof loader drops them.
package jfr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/proflens/proflens/analysis"
)

func init() {
	analysis.RegisterFormat(analysis.Format{
		Name:     "jfr",
		Priority: 6, // before pprof, which takes any binary input
		Sniff:    sniff,
		Parse:    parse,
	})
}

// magic starts every chunk.
var magic = []byte("FLR\x00")

// headerSize is the size of a chunk header.
const headerSize = 68

func sniff(head []byte) bool { return bytes.HasPrefix(head, magic) }

// chunk is one chunk's place in the file and its header's times.
type chunk struct {
	off, size  int
	meta, pool int    // offsets of the metadata and of the last constant pool, in the chunk
	startNanos int64  // wall clock, nanoseconds since 1970
	duration   int64  // nanoseconds
	startTicks uint64 // the chunk's tick counter at startNanos
	tps        uint64 // ticks per second
}

// chunks walks the chunk headers of a recording.
func chunks(name string, data []byte) ([]chunk, error) {
	var out []chunk
	for off := 0; off < len(data); {
		h := data[off:]
		switch {
		case len(h) < headerSize:
			return nil, analysis.OffsetError(name, int64(off), nil, "expected a JFR chunk header of %d bytes, found %d", headerSize, len(h))
		case !bytes.HasPrefix(h, magic):
			return nil, analysis.OffsetError(name, int64(off), nil, "expected a JFR chunk (\"FLR\\0\"), found %q", h[:4])
		}
		if major, minor := binary.BigEndian.Uint16(h[4:]), binary.BigEndian.Uint16(h[6:]); major != 2 {
			return nil, analysis.OffsetError(name, int64(off+4), nil, "a JFR chunk of version %d.%d%s: proflens reads JFR version 2 (JDK 11 and later, OpenJDK 8u262 and later, async-profiler); record again with one of those",
				major, minor, map[bool]string{true: " (Oracle JDK 7 and 8)"}[major == 0])
		}
		size := binary.BigEndian.Uint64(h[8:])
		if size < headerSize || size > uint64(len(h)) {
			return nil, analysis.OffsetError(name, int64(off+8), nil, "expected a chunk size between %d and the %d bytes left, found %d", headerSize, len(h), size)
		}
		pool, meta := binary.BigEndian.Uint64(h[16:]), binary.BigEndian.Uint64(h[24:])
		if pool < headerSize || pool >= size || meta < headerSize || meta >= size {
			return nil, analysis.OffsetError(name, int64(off+16), nil, "expected the offsets of the constant pool and metadata inside the chunk of %d bytes, found %d and %d", size, pool, meta)
		}
		out = append(out, chunk{
			off: off, size: int(size), meta: int(meta), pool: int(pool),
			startNanos: int64(binary.BigEndian.Uint64(h[32:])),
			duration:   int64(binary.BigEndian.Uint64(h[40:])),
			startTicks: binary.BigEndian.Uint64(h[48:]),
			tps:        binary.BigEndian.Uint64(h[56:]),
		})
		off += int(size)
	}
	if len(out) == 0 {
		return nil, analysis.OffsetError(name, 0, nil, "expected a JFR chunk, found an empty file")
	}
	return out, nil
}

// span returns the earliest start and the latest end of the chunks, in
// nanoseconds since 1970: chunks need not be in time order (async-profiler
// and the JDK may each write chunks to one file).
func span(cs []chunk) (start, end int64) {
	start, end = cs[0].startNanos, cs[0].startNanos+cs[0].duration
	for _, c := range cs[1:] {
		start, end = min(start, c.startNanos), max(end, c.startNanos+c.duration)
	}
	return start, end
}

// nanos converts a tick count of c's clock to nanoseconds.
func (c *chunk) nanos(ticks uint64) int64 {
	tps := c.tps
	if tps == 0 {
		tps = 1e9
	}
	hi, lo := bits.Mul64(ticks, 1e9)
	if hi >= tps { // the quotient does not fit 64 bits
		return 1 << 62
	}
	ns, _ := bits.Div64(hi, lo, tps)
	return int64(min(ns, 1<<62))
}

// at converts an event's start ticks to nanoseconds since origin.
func (c *chunk) at(ticks uint64, origin int64) int64 {
	var d int64
	if ticks >= c.startTicks {
		d = c.nanos(ticks - c.startTicks)
	} else {
		d = -c.nanos(c.startTicks - ticks)
	}
	return c.startNanos - origin + d
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	cs, err := chunks(in.Name, in.Data)
	if err != nil {
		return nil, err
	}
	origin, end := span(cs)
	r := reader{name: in.Name, origin: origin, max: in.Limits().Samples}
	for i := range cs {
		if err := r.chunk(in, &cs[i], i, len(cs)); err != nil {
			return nil, err
		}
	}
	if len(r.events) == 0 {
		return nil, &analysis.SyntaxError{File: in.Name, Offset: -1,
			Msg: "expected execution, allocation or lock events (jdk.ExecutionSample, jdk.ObjectAllocation*, jdk.JavaMonitorEnter, jdk.ThreadPark); the recording has none"}
	}
	b := r.build(in)
	p := b.Profile()
	p.Start = unixNanos(origin)
	p.Duration = durationOf(end - origin)
	p.Lang = analysis.LangJVM
	return b.Finish(), nil
}

// chunk reads the events of one chunk, turning a parser's panic into an
// error at the chunk: the parser is third-party code fed untrusted bytes.
func (r *reader) chunk(in *analysis.Input, c *chunk, i, n int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = analysis.OffsetError(r.name, int64(c.off), fmt.Errorf("%v", v), "expected a valid JFR chunk (chunk %d of %d; the parser failed)", i+1, n)
		}
	}()
	if err := r.read(in, c, i); err != nil {
		var le *analysis.LimitError
		if errors.As(err, &le) || errors.Is(err, in.Context().Err()) {
			return err
		}
		at := c.off
		if l, ok := err.(*located); ok {
			at += l.at
		}
		return analysis.OffsetError(r.name, int64(at), err, "expected a valid JFR chunk (chunk %d of %d)", i+1, n)
	}
	return nil
}
