package pprof

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/proflens/proflens/analysis"
)

// A direct decoder for uncompressed pprof protobuf data. It produces exactly
// what fromProfile(profile.ParseData(data)) produces, without building pprof's
// object graph (a *analysis.Sample and a []*Location per sample), which for a
// million samples costs several times the memory and time of the model
// itself. It accepts only data that profile.ParseData accepts: on anything
// unusual it reports failure and the caller falls back to ParseData, which
// also gives the error message.

// pbField is one protobuf field: its number, wire type and value (u for
// varint and fixed types, data for length-delimited ones). The wire format
// is read with protowire, which is stricter than profile's decoder (varints
// must fit 64 bits, field numbers be at least 1): the decoder then declines,
// and ParseData decides.
type pbField struct {
	num  uint64
	typ  protowire.Type
	u    uint64
	data []byte
	raw  []byte // the varint's own bytes (typ 0)
}

// pbNext reads the field at the start of b and returns the rest; ok is
// false for malformed data.
func pbNext(b []byte) (f pbField, rest []byte, ok bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return f, nil, false
	}
	b = b[n:]
	f.num, f.typ = uint64(num), typ
	switch typ {
	case protowire.VarintType:
		f.u, n = protowire.ConsumeVarint(b)
		if n > 0 {
			f.raw = b[:n]
		}
	case protowire.Fixed64Type:
		_, n = protowire.ConsumeFixed64(b)
	case protowire.BytesType:
		f.data, n = protowire.ConsumeBytes(b)
	case protowire.Fixed32Type:
		_, n = protowire.ConsumeFixed32(b)
	default:
		return f, nil, false
	}
	if n < 0 {
		return f, nil, false
	}
	return f, b[n:], true
}

// pbEach calls fn for each field of msg; it stops and returns false on
// malformed data or when fn returns false.
func pbEach(msg []byte, fn func(f pbField) bool) bool {
	for len(msg) > 0 {
		f, rest, ok := pbNext(msg)
		if !ok || !fn(f) {
			return false
		}
		msg = rest
	}
	return true
}

// pbInts appends the values of a repeated varint field, packed (typ 2) or
// not (typ 0), to dst.
func pbInts(dst []uint64, f pbField) ([]uint64, bool) {
	ok := pbEachInt(f, func(u uint64) bool {
		dst = append(dst, u)
		return true
	})
	return dst, ok
}

// pbEachInt calls fn for each value of a repeated varint field.
func pbEachInt(f pbField, fn func(u uint64) bool) bool {
	switch f.typ {
	case protowire.VarintType:
		return fn(f.u)
	case protowire.BytesType:
		for b := f.data; len(b) > 0; {
			u, n := protowire.ConsumeVarint(b)
			if n < 0 || !fn(u) {
				return false
			}
			b = b[n:]
		}
		return true
	}
	return false
}

// pbKind is how profile's decoder reads a known field: a single varint, a
// repeated varint (packed or not), or a length-delimited message or string.
type pbKind uint8

const (
	pbScalar pbKind = iota + 1
	pbRepeated
	pbBytes
)

// pbSchema gives, per message, the kind of each field profile.proto
// defines; unknown fields are skipped as profile's decoder skips them.
var (
	pbProfileSchema   = []pbKind{0, pbBytes, pbBytes, pbBytes, pbBytes, pbBytes, pbBytes, pbScalar, pbScalar, pbScalar, pbScalar, pbBytes, pbScalar, pbRepeated, pbScalar, pbScalar}
	pbValueTypeSchema = []pbKind{0, pbScalar, pbScalar}
	pbSampleSchema    = []pbKind{0, pbRepeated, pbRepeated, pbBytes}
	pbLabelSchema     = []pbKind{0, pbScalar, pbScalar, pbScalar, pbScalar}
	pbMappingSchema   = []pbKind{0, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar}
	pbLocationSchema  = []pbKind{0, pbScalar, pbScalar, pbScalar, pbBytes, pbScalar}
	pbLineSchema      = []pbKind{0, pbScalar, pbScalar, pbScalar}
	pbFunctionSchema  = []pbKind{0, pbScalar, pbScalar, pbScalar, pbScalar, pbScalar}
)

// pbFields is pbEach with the wire types checked against schema.
func pbFields(msg []byte, schema []pbKind, fn func(f pbField) bool) bool {
	return pbEach(msg, func(f pbField) bool {
		known, ok := pbCheck(f, schema)
		return ok && (!known || fn(f))
	})
}

// pbCheck reports whether schema knows f and, if so, whether f has the wire
// type profile's decoder expects.
func pbCheck(f pbField, schema []pbKind) (known, ok bool) {
	if f.num >= uint64(len(schema)) || schema[f.num] == 0 {
		return false, true
	}
	switch schema[f.num] {
	case pbScalar:
		return true, f.typ == protowire.VarintType
	case pbRepeated:
		return true, f.typ == protowire.VarintType || f.typ == protowire.BytesType
	}
	return true, f.typ == protowire.BytesType
}

// pbSource calls fn for each top-level field of a profile, in order, with
// wire types checked; each call reads the profile from its start. It
// returns false on malformed data or when fn returns false. A field's data
// is valid only during the call of fn.
type pbSource func(fn func(f pbField) bool) bool

// decode decodes uncompressed pprof protobuf data (in.Data) into the
// model; ok is false when the data is anything but a well-formed profile
// with at least one sample type, and the caller should use
// profile.ParseData. An error (a limit, the context) ends the load.
func decode(in *analysis.Input) (p *analysis.Profile, ok bool, err error) {
	return decodeSource(in, func(fn func(f pbField) bool) bool { return pbFields(in.Data, pbProfileSchema, fn) })
}

// decodeSource reads the tables in a first pass over src and the samples in
// a second.
func decodeSource(in *analysis.Input, src pbSource) (p *analysis.Profile, ok bool, err error) {
	lim := in.Limits()
	d := &pbDecoder{funcs: map[uint64]int32{}, locs: map[uint64]int32{}, maps: map[uint64]int32{},
		ctx: in.Context(), room: 8 * lim.Frames, maxSamples: int(lim.Samples)}
	if !d.header(src) {
		return nil, false, d.headerError(in.Name, lim)
	}
	if !d.resolve() {
		return nil, false, nil
	}
	b := d.builder(in)
	if !d.samples(b, src) || b.Err() != nil {
		return nil, false, b.Err()
	}
	b.Profile().Lang = guessLang(d.funcNames)
	return b.Finish(), true, nil
}

// headerError says why the header pass stopped, when it was not the data:
// a table or the samples past their limit, or the end of the context.
func (d *pbDecoder) headerError(file string, lim analysis.Limits) error {
	switch {
	case d.room < 0:
		return &analysis.LimitError{File: file, What: "entries in the pprof tables of strings, mappings, functions, locations and lines (8 × max-frames)",
			Max: 8 * lim.Frames, Option: "max-frames"}
	case d.nSamples > d.maxSamples:
		return &analysis.LimitError{File: file, What: "samples", Max: lim.Samples, Option: "max-samples"}
	case d.ctx.Err() != nil:
		return fmt.Errorf("%s: %w", file, d.ctx.Err())
	}
	return nil
}

// builder starts the profile with the header's metadata, as fromProfile does.
func (d *pbDecoder) builder(in *analysis.Input) *analysis.Builder {
	types := make([]analysis.ValueType, len(d.sampleTypes))
	for i, st := range d.sampleTypes {
		types[i] = analysis.ValueType{Type: d.strs[st[0]], Unit: d.strs[st[1]]}
	}
	b := in.NewBuilder(types...)
	p := b.Profile()
	for _, c := range d.comments {
		p.Comment = append(p.Comment, d.strs[c])
	}
	p.DefaultValue = len(types) - 1
	if dst := d.strs[d.defaultType]; dst != "" {
		for i, t := range types {
			if t.Type == dst {
				p.DefaultValue = i
				break
			}
		}
	}
	p.Period = d.period
	p.PeriodType = analysis.ValueType{Type: d.strs[d.periodType[0]], Unit: d.strs[d.periodType[1]]}
	if d.timeNanos != 0 {
		p.Start = time.Unix(0, d.timeNanos).UTC()
	}
	p.Duration = time.Duration(d.durationNanos)
	b.Grow(d.nSamples)
	return b
}

// locationFrames interns the frames of location i once, caller first, as
// locationFrames does for a parsed location.
func (d *pbDecoder) locationFrames(b *analysis.Builder, i int32) []int32 {
	if fr := d.locFrames[i]; fr != nil {
		return fr
	}
	lines := d.lineFuncs[d.locLines[i]:d.locLines[i+1]]
	var lib string
	if m, ok := d.maps[d.locMapping[i]]; ok {
		lib = d.strs[d.mapFile[m]]
	}
	var out []int32
	if len(lines) == 0 {
		name := "<unknown>"
		if lib != "" {
			name = "[" + filepath.Base(lib) + "]"
		}
		out = []int32{b.Frame(analysis.Frame{Name: name, Lib: lib, Addr: d.locAddr[i]})}
	} else {
		out = make([]int32, 0, len(lines))
		for j := len(lines) - 1; j >= 0; j-- {
			fn := &d.funcList[lines[j]]
			out = append(out, b.Frame(analysis.Frame{Name: cmp.Or(d.strs[fn.name], "<unknown>"), File: d.strs[fn.file],
				Line: d.lineNums[int(d.locLines[i])+j], Addr: d.locAddr[i], Lib: lib}))
		}
	}
	d.locFrames[i] = out
	return out
}

// samples decodes every sample into b. Stacks are cached by the bytes of
// their location ids, so a repeated stack costs one map lookup.
func (d *pbDecoder) samples(b *analysis.Builder, src pbSource) bool {
	nt := len(d.sampleTypes)
	vals := make([]int64, 0, nt) // Add copies them
	stackOf := make(map[string]int32)
	var key []byte
	var ids []uint64
	var frames []int32
	return src(func(f pbField) bool {
		if f.num != 2 {
			return true
		}
		if b.Err() != nil {
			return false
		}
		vals = vals[:0]
		var ls labelSet
		key = key[:0]
		ok := pbFields(f.data, pbSampleSchema, func(g pbField) bool {
			switch g.num {
			case 1:
				if g.typ == protowire.VarintType {
					key = append(key, g.raw...)
				} else {
					key = append(key, g.data...)
				}
			case 2:
				return pbEachInt(g, func(v uint64) bool {
					if len(vals) == nt {
						return false
					}
					vals = append(vals, int64(v))
					return true
				})
			case 3:
				return d.label(&ls, g.data)
			}
			return true
		})
		if !ok || len(vals) != nt {
			return false
		}
		stack, hit := stackOf[string(key)]
		if !hit {
			var good bool
			if ids, good = pbInts(ids[:0], pbField{typ: protowire.BytesType, data: key}); !good {
				return false
			}
			frames = frames[:0]
			for j := len(ids) - 1; j >= 0; j-- {
				li, found := d.locs[ids[j]]
				if !found {
					return false
				}
				if frames = append(frames, d.locationFrames(b, li)...); !b.CheckDepth(len(frames)) {
					return false
				}
			}
			stack = b.Stack(frames)
			stackOf[string(key)] = stack
		}
		for k, vs := range ls.num {
			for _, v := range vs {
				_, unit, _ := strings.Cut(v, " ")
				b.NumLabel(k, unit)
			}
		}
		addSample(b, stack, vals, ls.merged())
		return true
	})
}
