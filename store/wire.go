package store

import (
	"encoding/binary"
	"fmt"
	"time"
)

// message is a protocol buffers message being encoded, fields appended in
// order. Zero values are left out, as proto3 encoders do.
type message []byte

const (
	wireVarint = 0
	wireBytes  = 2
)

func (m message) tag(field, wire int) message {
	return binary.AppendUvarint(m, uint64(field)<<3|uint64(wire))
}

// int adds an int64, int32, enum or bool field.
func (m message) int(field int, v int64) message {
	if v == 0 {
		return m
	}
	return binary.AppendUvarint(m.tag(field, wireVarint), uint64(v))
}

// bytes adds a string, bytes or message field; empty ones are left out
// unless always (an empty sub-message that must be present).
func (m message) bytes(field int, b []byte, always bool) message {
	if len(b) == 0 && !always {
		return m
	}
	m = binary.AppendUvarint(m.tag(field, wireBytes), uint64(len(b)))
	return append(m, b...)
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

// fields calls fn on every field of msg in order. It fails, with the byte
// offset, on a truncated or malformed message, or on a wire type other
// than varint, 64-bit, length-delimited and 32-bit.
func fields(msg []byte, fn func(f field) error) error {
	for i := 0; i < len(msg); {
		key, n := binary.Uvarint(msg[i:])
		if n <= 0 || key>>3 == 0 || key>>3 > 1<<29 {
			return fmt.Errorf("byte %d: expected a field key", i)
		}
		f, size, err := value(msg[i+n:], int(key>>3), int(key&7))
		if err != nil {
			return fmt.Errorf("byte %d: field %d: %w", i, key>>3, err)
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("byte %d: field %d: %w", i, key>>3, err)
		}
		i += n + size
	}
	return nil
}

// value decodes the value of a field with the given wire type at the
// start of b and returns it with its size.
func value(b []byte, num, wire int) (field, int, error) {
	f := field{num: num, wire: wire}
	switch wire {
	case wireVarint:
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return f, 0, fmt.Errorf("truncated varint")
		}
		f.v = v
		return f, n, nil
	case wireBytes:
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return f, 0, fmt.Errorf("length-delimited value runs past the end (%d bytes left)", len(b))
		}
		f.data = b[n : n+int(l)]
		return f, n + int(l), nil
	case 1, 5: // fixed64, fixed32: skipped
		size := 8
		if wire == 5 {
			size = 4
		}
		if len(b) < size {
			return f, 0, fmt.Errorf("truncated fixed-size value")
		}
		return f, size, nil
	}
	return f, 0, fmt.Errorf("unexpected wire type %d", wire)
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
