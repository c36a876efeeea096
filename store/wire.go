package store

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// message is a protocol buffers message being encoded, fields appended in
// order with protowire. Zero values are left out, as proto3 encoders do.
type message []byte

const (
	wireVarint = int(protowire.VarintType)
	wireBytes  = int(protowire.BytesType)
)

func (m message) tag(field, wire int) message {
	return protowire.AppendTag(m, protowire.Number(field), protowire.Type(wire))
}

// int adds an int64, int32, enum or bool field.
func (m message) int(field int, v int64) message {
	if v == 0 {
		return m
	}
	return protowire.AppendVarint(m.tag(field, wireVarint), uint64(v))
}

// bytes adds a string, bytes or message field; empty ones are left out
// unless always (an empty sub-message that must be present).
func (m message) bytes(field int, b []byte, always bool) message {
	if len(b) == 0 && !always {
		return m
	}
	return protowire.AppendBytes(m.tag(field, wireBytes), b)
}

func (m message) str(field int, s string) message { return m.bytes(field, []byte(s), false) }

// timestamp adds a google.protobuf.Timestamp; a zero time is left out.
func (m message) timestamp(field int, t time.Time) message {
	if t.IsZero() {
		return m
	}
	ts := message(nil).int(1, t.Unix()).int(2, int64(t.Nanosecond()))
	return m.bytes(field, ts, true)
}

// field is one field of a message being decoded.
type field struct {
	num  int
	wire int
	v    uint64 // a varint's value
	data []byte // a length-delimited field's bytes
}

// fields calls fn on every field of msg in order, read with protowire. It
// fails, with the byte offset, on a truncated or malformed message, or on a
// wire type other than varint, 64-bit, length-delimited and 32-bit.
func fields(msg []byte, fn func(f field) error) error {
	for i := 0; i < len(msg); {
		num, wire, n := protowire.ConsumeTag(msg[i:])
		if n < 0 || num > 1<<29 {
			return fmt.Errorf("byte %d: expected a field key", i)
		}
		f, size, err := value(msg[i+n:], int(num), int(wire))
		if err != nil {
			return fmt.Errorf("byte %d: field %d: %w", i, num, err)
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("byte %d: field %d: %w", i, num, err)
		}
		i += n + size
	}
	return nil
}

// value decodes the value of a field with the given wire type at the
// start of b and returns it with its size.
func value(b []byte, num, wire int) (field, int, error) {
	f := field{num: num, wire: wire}
	n := 0
	switch protowire.Type(wire) {
	case protowire.VarintType:
		if f.v, n = protowire.ConsumeVarint(b); n < 0 {
			return f, 0, fmt.Errorf("truncated varint")
		}
	case protowire.BytesType:
		if f.data, n = protowire.ConsumeBytes(b); n < 0 {
			return f, 0, fmt.Errorf("length-delimited value runs past the end (%d bytes left)", len(b))
		}
	case protowire.Fixed64Type: // skipped
		if _, n = protowire.ConsumeFixed64(b); n < 0 {
			return f, 0, fmt.Errorf("truncated fixed-size value")
		}
	case protowire.Fixed32Type: // skipped
		if _, n = protowire.ConsumeFixed32(b); n < 0 {
			return f, 0, fmt.Errorf("truncated fixed-size value")
		}
	default:
		return f, 0, fmt.Errorf("unexpected wire type %d", wire)
	}
	return f, n, nil
}

// repeated returns the values of the length-delimited field num of msg
// (a repeated string, bytes or message field) in order.
func repeated(msg []byte, num int) ([][]byte, error) {
	var out [][]byte
	err := fields(msg, func(f field) error {
		if f.num == num && f.wire == wireBytes {
			out = append(out, f.data)
		}
		return nil
	})
	return out, err
}

// stringsOf returns the repeated string field num of msg.
func stringsOf(msg []byte, num int) ([]string, error) {
	vs, err := repeated(msg, num)
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out, err
}
