package store

import (
	"encoding/hex"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestMessages pins the encoding of the requests (checked byte for byte
// against protoc's encoding of the same messages, written out here).
func TestMessages(t *testing.T) {
	at := time.Date(2024, 5, 14, 14, 0, 0, 5, time.UTC)
	tests := []struct {
		name string
		m    message
		want string
	}{
		// SelectMergeProfileRequest{profile_typeID: "t", label_selector: "{}", start: 1, end: 300}
		{"merge", message(nil).str(1, "t").str(2, "{}").int(3, 1).int(4, 300), "0a0174" + "12027b7d" + "1801" + "20ac02"},
		// zero fields are left out
		{"zeros", message(nil).str(1, "").int(2, 0), ""},
		// a negative int64 is ten bytes of varint
		{"negative", message(nil).int(1, -1), "08ffffffffffffffffff01"},
		// Timestamp{seconds: 1715695200, nanos: 5} as field 2
		{"timestamp", message(nil).timestamp(2, at), "1208" + "08e0dc8db206" + "1005"},
		// an empty sub-message that must be present
		{"empty", message(nil).bytes(3, nil, true), "1a00"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(tt.m); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestFieldsErrors(t *testing.T) {
	for in, want := range map[string]string{
		"0a05616263":             "byte 0: field 1: length-delimited value runs past the end",
		"08":                     "byte 0: field 1: truncated varint",
		"0f":                     "byte 0: field 1: unexpected wire type 7",
		"00":                     "byte 0: expected a field key",
		"0a0161" + "ff":          "byte 3: expected a field key",
		"0a0161" + "09010203":    "byte 3: field 1: truncated fixed-size value",
		"0d010203":               "byte 0: field 1: truncated fixed-size value",
		"0b":                     "byte 0: field 1: unexpected wire type 3",
		"08ffffffffffffffffff7f": "byte 0: field 1: truncated varint",
		"0aff":                   "byte 0: field 1: length-delimited value runs past the end (1 bytes left)",
		"8880808010":             "byte 0: expected a field key",
		"ffffffffffffffffffff01": "byte 0: expected a field key",
	} {
		b, _ := hex.DecodeString(in)
		if err := fields(b, func(field) error { return nil }); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fields(%s) = %v, want %q", in, err, want)
		}
	}
}

func TestUnframe(t *testing.T) {
	body := append(frame(0, []byte("msg")), frame(0x80, []byte("grpc-status: 0\r\n"))...)
	msg, trailer, err := unframe(body)
	if err != nil || string(msg) != "msg" || trailer != "grpc-status: 0\r\n" {
		t.Errorf("unframe = %q, %q, %v", msg, trailer, err)
	}
	if err := grpcStatus(http.Header{}, trailer); err != nil {
		t.Errorf("status 0: %v", err)
	}
	h := http.Header{"Grpc-Status": {"5"}, "Grpc-Message": {"no%20such%20type"}}
	if err := grpcStatus(h, ""); err == nil || err.Error() != "gRPC status 5 (not found): no such type" {
		t.Errorf("status in the headers: %v", err)
	}
	if err := grpcStatus(http.Header{}, ""); err == nil {
		t.Error("an answer without a status is not an answer")
	}
	for _, bad := range [][]byte{{0}, {0, 0, 0, 0, 9, 1}, frame(1, []byte("x"))} {
		if _, _, err := unframe(bad); err == nil {
			t.Errorf("unframe(%x) accepted a bad body", bad)
		}
	}
}

// TestFieldsSkip: fixed-size fields and field number 2^29 are read past;
// every field reaches fn with its value.
func TestFieldsSkip(t *testing.T) {
	b, _ := hex.DecodeString("09" + "0102030405060708" + "15" + "01020304" + "8080808010" + "2a" + "2a" + "02" + "6869")
	var got []field
	if err := fields(b, func(f field) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []field{{num: 1, wire: 1}, {num: 2, wire: 5}, {num: 1 << 29, v: 42}, {num: 5, wire: 2, data: []byte("hi")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields = %+v, want %+v", got, want)
	}
}

// FuzzFields: any bytes decode to fields or an error, never a panic; a
// length-delimited field's data lies within the message.
func FuzzFields(f *testing.F) {
	f.Add([]byte(message(nil).str(1, "a").int(2, 7).timestamp(3, time.Unix(5, 6))))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		total := 0
		_ = fields(b, func(f field) error {
			if total += len(f.data); total > len(b) {
				t.Fatalf("fields of %d bytes from a message of %d", total, len(b))
			}
			return nil
		})
	})
}

// FuzzUnframe: any body splits into frames or fails, never panics.
func FuzzUnframe(f *testing.F) {
	f.Add(append(frame(0, []byte("m")), frame(0x80, []byte("grpc-status: 0"))...))
	f.Fuzz(func(t *testing.T, b []byte) {
		msg, _, err := unframe(b)
		if err == nil && len(msg) > len(b) {
			t.Errorf("a message of %d bytes from a body of %d", len(msg), len(b))
		}
	})
}
