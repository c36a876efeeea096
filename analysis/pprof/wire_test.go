package pprof

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestProtoCheck places each kind of malformed wire data at its byte
// offset, inside nested messages too, and accepts what profile.ParseData
// accepts: unknown fields of every wire type, bytes in fields that are not
// messages, a ten-byte varint whose bits run past 64.
func TestProtoCheck(t *testing.T) {
	for _, c := range []struct {
		hex  string
		off  int64
		want string
	}{
		{"", -1, ""},
		{"08 96 01", -1, ""},
		{"08 ffffffffffffffffff 01", -1, ""},
		{"08 ffffffffffffffffff 7f", -1, ""},
		{"32 02 ffff", -1, ""},          // a string table entry is not walked
		{"f8 01 05", -1, ""},            // unknown field 31
		{"79 0102030405060708", -1, ""}, // fixed64 field 15
		{"7d 01020304", -1, ""},         // fixed32 field 15
		{"80", 0, "expected a field key (varint)"},
		{"08 01 ffffffffffffffffffff 01", 2, "expected a field key (varint)"},
		{"00", 0, "expected a field number > 0"},
		{"08", 1, "expected a varint value for field 1"},
		{"08 ffffffffffffffffffff 01", 1, "expected a varint value for field 1"},
		{"09 0102", 1, "expected 8 bytes for fixed field 1, found 2"},
		{"0d 01", 1, "expected 4 bytes for fixed field 1, found 1"},
		{"0a", 1, "expected a length (varint) for field 1"},
		{"0a 05 6161", 2, "expected 5 bytes for field 1, found 2"},
		{"0b", 0, "expected wire type 0, 1, 2 or 5 for field 1, got 3"},
		{"08 01 0e", 2, "expected wire type 0, 1, 2 or 5 for field 1, got 6"},
		{"12 02 08 80", 3, "expected a varint value for field 1"},
		{"0a 00 12 03 08 01 00", 6, "expected a field number > 0"},
		{"5a 02 0a 05", 4, "expected 5 bytes for field 1, found 0"},
	} {
		data, err := hex.DecodeString(strings.ReplaceAll(c.hex, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		if off, msg := protoCheck(data); off != c.off || msg != c.want {
			t.Errorf("protoCheck(%s) = %d, %q, want %d, %q", c.hex, off, msg, c.off, c.want)
		}
	}
}
