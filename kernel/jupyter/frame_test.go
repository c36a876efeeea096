package jupyter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// zframe builds one ZMTP frame header and body; long forces the 8-octet size.
func zframe(flags byte, body []byte, long bool) []byte {
	if long || len(body) > 255 {
		h := make([]byte, 9)
		h[0] = flags | flagLong
		binary.BigEndian.PutUint64(h[1:], uint64(len(body)))
		return append(h, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// header9 is a long frame header declaring size octets, with no body.
func header9(flags byte, size uint64) []byte {
	h := make([]byte, 9)
	h[0] = flags | flagLong
	binary.BigEndian.PutUint64(h[1:], size)
	return h
}

var testLimits = limits{message: 300, frames: 4, command: 40}

func TestFramer(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 200)
	tests := []struct {
		name   string
		stream []byte
		ok     bool
	}{
		{"one short frame", zframe(0, []byte("hello"), false), true},
		{"a long size for a small frame", zframe(0, []byte("hi"), true), true},
		{"a message at the limit", cat(zframe(flagMore, big, false), zframe(0, big[:100], false)), true},
		{"a message one octet over", cat(zframe(flagMore, big, false), zframe(0, big[:101], false)), false},
		{"two messages each under the limit", cat(zframe(0, big, false), zframe(0, big, false)), true},
		{"frames at the limit", cat(zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(0, nil, false)), true},
		{"one frame too many", cat(zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(0, nil, false)), false},
		{"size 2^62", header9(0, 1<<62), false},
		{"size 2^64-1", header9(0, ^uint64(0)), false},
		{"size 2^64-1 after a frame", cat(zframe(flagMore, big, false), header9(0, ^uint64(0))), false},
		{"a command", zframe(flagCommand, []byte("\x04PING\x00\x00"), false), true},
		{"a command at its limit", zframe(flagCommand, big[:40], false), true},
		{"a command over its limit", zframe(flagCommand, big[:41], false), false},
		{"a command with MORE", zframe(flagCommand|flagMore, []byte("\x04PING"), false), false},
		{"a command inside a message", cat(zframe(flagMore, nil, false), zframe(flagCommand, []byte("\x04PING"), false)), false},
		{"reserved flag bits", zframe(0x08, nil, false), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := passed(&frameReader{r: bytes.NewReader(tt.stream), f: framer{lim: testLimits}})
			var fe *FrameError
			if tt.ok && (err != io.EOF || !bytes.Equal(out, tt.stream)) {
				t.Errorf("passed %d of %d octets, err %v; want all, no error", len(out), len(tt.stream), err)
			}
			if !tt.ok && !errors.As(err, &fe) {
				t.Errorf("err = %v, want a *FrameError", err)
			}
		})
	}
}

// passed reads frames from fr until an error and returns the octets of
// the whole frames it read, headers and bodies, as they were on the wire.
func passed(fr *frameReader) ([]byte, error) {
	var out []byte
	for {
		flags, size, err := fr.next()
		if err != nil {
			return out, err
		}
		hdr := append([]byte(nil), fr.hdr[:headerLen(flags)]...)
		body, err := fr.body(size)
		if err != nil {
			return out, err
		}
		out = append(append(out, hdr...), body...)
	}
}

// TestFrameReaderEnds: the stream may end between frames (io.EOF); a header
// or a body cut short is io.ErrUnexpectedEOF.
func TestFrameReaderEnds(t *testing.T) {
	whole := zframe(0, []byte("hello"), true)
	for n := 0; n <= len(whole); n++ {
		_, err := passed(&frameReader{r: bytes.NewReader(whole[:n]), f: framer{lim: testLimits}})
		want := io.ErrUnexpectedEOF
		if n == 0 || n == len(whole) {
			want = io.EOF
		}
		if err != want {
			t.Errorf("%d octets: err %v, want %v", n, err, want)
		}
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// reference walks a whole frame stream by the rules of ZMTP and lim, and
// returns where the first refused frame header starts, or -1. It is a second,
// straight-line reading of the rules, for FuzzFrameReader.
func reference(s []byte, lim limits) int {
	var msg uint64
	frames, more := 0, false
	for pos := 0; pos < len(s); {
		flags := s[pos]
		hl := 2
		if flags&2 != 0 {
			hl = 9
		}
		if pos+hl > len(s) {
			return -1
		}
		size := uint64(s[pos+1])
		if hl == 9 {
			size = binary.BigEndian.Uint64(s[pos+1 : pos+9])
		}
		command := flags&4 != 0
		switch {
		case flags > 7:
			return pos
		case command && (flags&1 != 0 || more || size > uint64(lim.command)):
			return pos
		case !command:
			frames++
			if frames > lim.frames || size > uint64(lim.message) || msg+size > uint64(lim.message) {
				return pos
			}
			msg += size
			more = flags&1 != 0
			if !more {
				msg, frames = 0, 0
			}
		}
		if size > uint64(len(s)-pos-hl) {
			return -1 // the body runs past the end
		}
		pos += hl + int(size)
	}
	return -1
}

// smallReads reads from r at most n octets at a time.
type smallReads struct {
	r io.Reader
	n int
}

func (s smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// FuzzFrameReader: any octets give whole frames that are a prefix of them,
// then an error, never a panic; a stream is refused exactly when the
// reference finds a frame over the limits, and then every frame before that
// frame's header, and nothing after, was read.
func FuzzFrameReader(f *testing.F) {
	f.Add(zframe(0, []byte("hello"), false), uint8(3))
	f.Add(cat(zframe(flagMore, []byte("a"), true), zframe(0, bytes.Repeat([]byte("b"), 290), false)), uint8(1))
	f.Add(cat(zframe(flagCommand, []byte("\x05READY"), false), header9(0, 1<<62)), uint8(200))
	f.Add(cat(zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false)), uint8(7))
	f.Add(header9(flagMore, 290), uint8(0))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		fr := &frameReader{r: smallReads{bytes.NewReader(stream), int(chunk%16) + 1}, f: framer{lim: testLimits}}
		out, err := passed(fr)
		if !bytes.HasPrefix(stream, out) {
			t.Fatalf("passed octets that are not the stream's")
		}
		var fe *FrameError
		at := reference(stream, testLimits)
		switch {
		case at >= 0 && !errors.As(err, &fe):
			t.Fatalf("the frame at octet %d breaks the limits, but the reader ended with %v", at, err)
		case at >= 0 && len(out) != at:
			t.Fatalf("refused the frame at octet %d after passing %d octets", at, len(out))
		case at < 0 && errors.As(err, &fe):
			t.Fatalf("refused a stream the reference accepts: %v", err)
		case at < 0 && err == io.EOF && len(out) != len(stream):
			t.Fatalf("ended after %d of %d octets", len(out), len(stream))
		}
	})
}

// TestWriteFramesRoundTrip: what writeFrames writes, frameReader reads back
// frame for frame, MORE on all but the last, sizes up to 255 in one octet and
// from 256 in eight; a command carries COMMAND on its frame.
func TestWriteFramesRoundTrip(t *testing.T) {
	lim := limits{message: 1 << 20, frames: 64, command: 1 << 10}
	for _, sizes := range [][]int{{0}, {255}, {256}, {1, 255, 256, 0, 70000}, {3, 3, 3}} {
		var frames [][]byte
		for i, n := range sizes {
			frames = append(frames, bytes.Repeat([]byte{byte('a' + i)}, n))
		}
		var buf bytes.Buffer
		if err := writeFrames(&buf, 0, frames); err != nil {
			t.Fatal(err)
		}
		wantLen := 0
		for _, n := range sizes {
			wantLen += n + 2
			if n > 255 {
				wantLen += 7
			}
		}
		if buf.Len() != wantLen {
			t.Errorf("sizes %v: wrote %d octets, want %d", sizes, buf.Len(), wantLen)
		}
		fr := &frameReader{r: &buf, f: framer{lim: lim}}
		for i, want := range frames {
			flags, size, err := fr.next()
			if err != nil {
				t.Fatalf("sizes %v: frame %d: %v", sizes, i, err)
			}
			body, _ := fr.body(size)
			more := flags&flagMore != 0
			if !bytes.Equal(body, want) || more != (i < len(frames)-1) || flags&flagCommand != 0 {
				t.Errorf("sizes %v: frame %d read back as %d octets, flags %#x", sizes, i, len(body), flags)
			}
		}
		if _, _, err := fr.next(); err != io.EOF {
			t.Errorf("sizes %v: after the message: %v, want io.EOF", sizes, err)
		}
	}
	var buf bytes.Buffer
	writeFrames(&buf, flagCommand, [][]byte{readyBody("ROUTER")})
	if want := zframe(flagCommand, readyBody("ROUTER"), false); !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("READY command written as %q, want %q", buf.Bytes(), want)
	}
}

// TestFrameErrorSays: a refused frame's error, which the kernel logs, says
// how large the message would have been, even past 2^64, and the limit.
func TestFrameErrorSays(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 200)
	tests := []struct {
		stream []byte
		want   string
	}{
		{cat(zframe(flagMore, big, false), zframe(0, big[:101], false)), "zmtp frame: message of at least 301 bytes: the limit is 300"},
		{cat(zframe(flagMore, big, false), header9(0, ^uint64(0))), "zmtp frame: message of at least 18446744073709551615 bytes: the limit is 300"},
		{header9(0, 1<<62), "zmtp frame: message of at least 4611686018427387904 bytes: the limit is 300"},
		{zframe(flagCommand, big[:41], false), "zmtp frame: command of 41 bytes: the limit is 40"},
		{cat(zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(flagMore, nil, false), zframe(0, nil, false)), "zmtp frame: message of more than 4 frames"},
		{zframe(0x08, nil, false), "zmtp frame: flags 0x08: reserved bits set"},
		{zframe(flagCommand|flagMore, nil, false), "zmtp frame: command frame with MORE set"},
		{cat(zframe(flagMore, nil, false), zframe(flagCommand, nil, false)), "zmtp frame: command frame inside a message"},
	}
	for _, tt := range tests {
		_, err := passed(&frameReader{r: bytes.NewReader(tt.stream), f: framer{lim: testLimits}})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v, want %q", tt.stream, err, tt.want)
		}
	}
}
