package pprof

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// wire writes protobuf fields, for profiles that pprof's writer would take
// too long or too much memory to make.
type wire struct{ w io.Writer }

func (p wire) varint(field int, v uint64) {
	p.w.Write(protowire.AppendVarint(protowire.AppendTag(nil, protowire.Number(field), protowire.VarintType), v))
}

func (p wire) bytes(field int, b []byte) {
	p.w.Write(protowire.AppendBytes(protowire.AppendTag(nil, protowire.Number(field), protowire.BytesType), b))
}

// message returns the bytes that fill writes.
func message(fill func(p wire)) []byte {
	var b bytes.Buffer
	fill(wire{&b})
	return b.Bytes()
}

// bomb writes a pprof profile of one value type (cpu/nanoseconds), nFuncs
// functions each at a location of its own with inline lines at location 1,
// and the samples that sample(i) gives, n of them: location ids and labels.
func bomb(w io.Writer, nFuncs, inline, n int, sample func(i int) (locs []uint64, value int64, labels int)) {
	p := wire{w}
	p.bytes(1, message(func(p wire) { p.varint(1, 1); p.varint(2, 2) }))
	for _, s := range []string{"", "cpu", "nanoseconds", "f", "k", "v"} {
		p.bytes(6, []byte(s))
	}
	for id := 1; id <= nFuncs; id++ {
		p.bytes(5, message(func(p wire) { p.varint(1, uint64(id)); p.varint(2, 3) }))
		p.bytes(4, message(func(p wire) {
			p.varint(1, uint64(id))
			for range max(1, inline*boolInt(id == 1)) {
				p.bytes(4, message(func(p wire) { p.varint(1, uint64(id)) }))
			}
		}))
	}
	for i := range n {
		locs, v, labels := sample(i)
		p.bytes(2, message(func(p wire) {
			for _, l := range locs {
				p.varint(1, l)
			}
			p.varint(2, uint64(v))
			for range labels {
				p.bytes(3, message(func(p wire) { p.varint(1, 4); p.varint(2, 5) }))
			}
		}))
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gzipped returns what write writes, gzipped.
func gzipBytes(write func(w io.Writer)) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	write(zw)
	zw.Close()
	return b.Bytes()
}

// TestSampleBomb: a gzipped profile of 12M samples (96 MB decompressed,
// 0.3 MB as sent) passes the default max-samples: it is refused while its
// samples are being counted, with memory to spare, both gzipped (streamed)
// and as plain protobuf.
func TestSampleBomb(t *testing.T) {
	testprof.Bounded(t, 400<<20, func(t *testing.T) {
		write := func(w io.Writer) {
			bomb(w, 1, 1, 0, nil)
			sample := message(func(p wire) { p.bytes(2, message(func(p wire) { p.varint(1, 1); p.varint(2, 1) })) })
			chunk := bytes.Repeat(sample, 100_000)
			for range 120 {
				w.Write(chunk)
			}
		}
		gz := gzipBytes(write)
		_, err := analysis.Parse(context.Background(), "bomb.pb.gz", gz, analysis.LoadOptions{})
		testprof.WantLimit(t, err, "max-samples")
		raw := message(func(p wire) { write(p.w) })
		_, err = analysis.Parse(context.Background(), "bomb.pb", raw, analysis.LoadOptions{})
		testprof.WantLimit(t, err, "max-samples")
	})
}

// TestInlineBomb: one location of 4,096 inlined lines, 100,000 times in
// one sample, makes a stack of 409,600,000 frames (1.6 GB of frame ids)
// from 120 KB: refused by max-depth as the stack grows.
func TestInlineBomb(t *testing.T) {
	testprof.Bounded(t, 300<<20, func(t *testing.T) {
		locs := make([]uint64, 100_000)
		for i := range locs {
			locs[i] = 1
		}
		raw := message(func(p wire) {
			bomb(p.w, 1, 4096, 1, func(int) ([]uint64, int64, int) { return locs, 1, 0 })
		})
		_, err := analysis.Parse(context.Background(), "inline.pb", raw, analysis.LoadOptions{})
		testprof.WantLimit(t, err, "max-depth")
	})
}

// TestTableAndLabelLimits: the tables of functions and locations count
// against max-frames (8 entries per frame), and labels against max-labels.
func TestTableAndLabelLimits(t *testing.T) {
	raw := message(func(p wire) {
		bomb(p.w, 2000, 1, 10, func(i int) ([]uint64, int64, int) { return []uint64{uint64(i + 1)}, 1, 100 })
	})
	_, err := analysis.Parse(context.Background(), "tables.pb", raw, analysis.LoadOptions{Limits: analysis.Limits{Frames: 500}})
	testprof.WantLimit(t, err, "max-frames")
	_, err = analysis.Parse(context.Background(), "labels.pb", raw, analysis.LoadOptions{Limits: analysis.Limits{Labels: 500}})
	testprof.WantLimit(t, err, "max-labels")
	if _, err := analysis.Parse(context.Background(), "fits.pb", raw, analysis.LoadOptions{}); err != nil {
		t.Errorf("Parse within the default limits: %v", err)
	}
}

// TestOverflowRefused: values whose sum passes math.MaxInt64 are refused,
// naming the sample, instead of giving a negative total.
func TestOverflowRefused(t *testing.T) {
	raw := message(func(p wire) {
		bomb(p.w, 1, 1, 3, func(int) ([]uint64, int64, int) { return []uint64{1}, math.MaxInt64/2 + 1, 0 })
	})
	_, err := analysis.Parse(context.Background(), "big.pb", raw, analysis.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "big.pb: sample 2: the cpu values add up past") {
		t.Errorf("Parse(big.pb) error %v, want the overflow at sample 2", err)
	}
}

// TestTableLimitExact: a profile whose tables hold exactly 8 × max-frames
// entries (a value type, 6 strings, and per function its function,
// location and line: 7 + 3 × 11 = 40 = 8 × 5) loads; one more function is
// refused, and the error states the limit.
func TestTableLimitExact(t *testing.T) {
	tables := func(nFuncs int) []byte {
		return message(func(p wire) {
			bomb(p.w, nFuncs, 1, 1, func(int) ([]uint64, int64, int) { return []uint64{1}, 1, 0 })
		})
	}
	opts := analysis.LoadOptions{Limits: analysis.Limits{Frames: 5}}
	if _, err := analysis.Parse(context.Background(), "fits.pb", tables(11), opts); err != nil {
		t.Errorf("40 table entries under max-frames=5: %v", err)
	}
	_, err := analysis.Parse(context.Background(), "over.pb", tables(12), opts)
	var le *analysis.LimitError
	if !errors.As(err, &le) || le.Option != "max-frames" || le.Max != 40 {
		t.Errorf("43 table entries under max-frames=5: error %v, want more than 40 entries, max-frames", err)
	}
}
