package pprof

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// protoCheck walks protobuf wire data (the top-level message and the
// messages nested in the pprof Profile fields) and returns the byte offset of
// the first malformed field with what was expected there, or -1 when the wire
// structure is sound. It places the errors of profile.ParseData, which has no
// positions.
func protoCheck(data []byte) (int64, string) {
	return protoWalk(data, 0, pprofMessageFields)
}

// pprofMessageFields are the Profile fields that hold messages: sample_type,
// sample, mapping, location, function, period_type.
var pprofMessageFields = map[uint64]bool{1: true, 2: true, 3: true, 4: true, 5: true, 11: true}

// protoWalk checks msg, which starts at byte base of the input; nested lists
// the length-delimited fields whose content is itself checked as a message.
func protoWalk(msg []byte, base int64, nested map[uint64]bool) (int64, string) {
	i := 0
	for i < len(msg) {
		start := i
		key, n := uvarint(msg[i:])
		if n <= 0 {
			return base + int64(start), "expected a field key (varint)"
		}
		i += n
		field, wire := key>>3, key&7
		if field == 0 {
			return base + int64(start), "expected a field number > 0"
		}
		switch wire {
		case 0:
			if _, n = uvarint(msg[i:]); n <= 0 {
				return base + int64(i), fmt.Sprintf("expected a varint value for field %d", field)
			}
			i += n
		case 1, 5:
			size := 8
			if wire == 5 {
				size = 4
			}
			if len(msg)-i < size {
				return base + int64(i), fmt.Sprintf("expected %d bytes for fixed field %d, found %d", size, field, len(msg)-i)
			}
			i += size
		case 2:
			l, n := uvarint(msg[i:])
			if n <= 0 {
				return base + int64(i), fmt.Sprintf("expected a length (varint) for field %d", field)
			}
			i += n
			if l > uint64(len(msg)-i) {
				return base + int64(i), fmt.Sprintf("expected %d bytes for field %d, found %d", l, field, len(msg)-i)
			}
			if nested[field] {
				if off, m := protoWalk(msg[i:i+int(l)], base+int64(i), nil); off >= 0 {
					return off, m
				}
			}
			i += int(l)
		default:
			return base + int64(start), fmt.Sprintf("expected wire type 0, 1, 2 or 5 for field %d, got %d", field, wire)
		}
	}
	return -1, ""
}

// uvarint reads a varint as profile.ParseData does: protowire's reading,
// except that a tenth byte above 1 is taken too (profile drops the bits past
// 64), so that protoCheck places no error where ParseData found none. n <= 0
// means truncated or longer than ten bytes.
func uvarint(b []byte) (uint64, int) {
	x, n := protowire.ConsumeVarint(b)
	if n > 0 || len(b) < 10 || b[9] >= 0x80 {
		return x, max(n, 0)
	}
	var low [10]byte // the same varint with the bits past 64 cleared
	copy(low[:], b)
	low[9] &= 1
	x, _ = protowire.ConsumeVarint(low[:])
	return x, 10
}
