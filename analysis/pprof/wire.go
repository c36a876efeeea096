package pprof

import "fmt"

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

// uvarint decodes a varint; n <= 0 means truncated or too long.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}
