package jupyter

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func sample(s signer) [][]byte {
	h := []byte(`{"msg_id":"m1","session":"s","username":"u","date":"2024-01-01T00:00:00Z","msg_type":"execute_request","version":"5.3"}`)
	return s.encode([][]byte{[]byte("id1"), []byte("id2")}, h, []byte(`{}`), []byte(`{}`), []byte(`{"code":"echo hi"}`))
}

func TestSignRoundTrip(t *testing.T) {
	for _, key := range []string{"", "secret", "0123456789abcdef0123456789abcdef"} {
		s := signer{key: []byte(key)}
		frames := sample(s)
		m, err := s.decode(frames)
		if err != nil {
			t.Fatalf("key %q: decode(encode(x)) = %v, want a message", key, err)
		}
		if m.Header.MsgType != "execute_request" || len(m.Identities) != 2 || string(m.Content) != `{"code":"echo hi"}` {
			t.Errorf("key %q: decoded %+v, want the encoded fields back", key, m)
		}
		again := s.encode(m.Identities, m.RawHeader, m.Parent, m.Metadata, m.Content)
		if len(again) != len(frames) {
			t.Fatalf("re-encode: %d frames, want %d", len(again), len(frames))
		}
		for i := range again {
			if !bytes.Equal(again[i], frames[i]) {
				t.Errorf("key %q: re-encoded frame %d = %q, want %q", key, i, again[i], frames[i])
			}
		}
	}
}

// TestTamper flips every byte of every signed frame in turn: each change must
// fail verification.
func TestTamper(t *testing.T) {
	s := signer{key: []byte("k")}
	frames := sample(s)
	d := 2 // index of the delimiter in sample
	for fi := d + 1; fi < len(frames); fi++ {
		for bi := range frames[fi] {
			f := cloneFrames(frames)
			f[fi][bi] ^= 0x01
			_, err := s.decode(f)
			if !errors.Is(err, ErrSignature) {
				t.Fatalf("frame %d byte %d flipped: decode err = %v, want ErrSignature", fi, bi, err)
			}
		}
	}
	other := signer{key: []byte("other")}
	if _, err := other.decode(frames); !errors.Is(err, ErrSignature) {
		t.Errorf("decode with another key: err = %v, want ErrSignature", err)
	}
	f := cloneFrames(frames)
	f[d+1] = nil
	if _, err := s.decode(f); !errors.Is(err, ErrSignature) {
		t.Errorf("unsigned: err = %v, want ErrSignature", err)
	}
}

// TestMalformed: every malformed message is a *WireError whose text, which
// the kernel logs, names the frame at fault and what was wrong with it.
func TestMalformed(t *testing.T) {
	s := signer{}
	good := sample(s) // id1, id2, delimiter, signature, header, parent, metadata, content
	signed := signer{key: []byte("k")}
	tests := []struct {
		name   string
		s      signer
		frames [][]byte
		want   string
	}{
		{"empty", s, nil, "wire message: no <IDS|MSG> delimiter"},
		{"no delimiter", s, [][]byte{[]byte("a"), []byte("b")}, "wire message: no <IDS|MSG> delimiter"},
		{"too few frames", s, good[:len(good)-1], "wire message: 4 frames after the delimiter, want at least 5 (signature, header, parent, metadata, content)"},
		{"delimiter first, too few", s, good[2:6], "wire message: 3 frames after the delimiter, want at least 5 (signature, header, parent, metadata, content)"},
		{"bad header JSON", s, replace(good, 4, []byte(`{"msg_id":`)), "wire message: frame 4: header is not a JSON object: unexpected end of JSON input"},
		{"header without type", s, replace(good, 4, []byte(`{"msg_id":"x"}`)), "wire message: frame 4: header lacks msg_type or msg_id"},
		{"parent not object", s, replace(good, 5, []byte(`[]`)), "wire message: frame 5: parent header is not a JSON object"},
		{"metadata not JSON", s, replace(good, 6, []byte(`nope`)), "wire message: frame 6: metadata is not a JSON object"},
		{"content null", s, replace(good, 7, []byte(`null`)), "wire message: frame 7: content is not a JSON object"},
		{"unsigned", signed, good, "wire message: frame 3: unsigned message: bad signature"},
		{"wrong HMAC", signed, replace(good, 3, []byte("00")), "wire message: frame 3: HMAC does not match: bad signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := tt.s.decode(tt.frames)
			var we *WireError
			if !errors.As(err, &we) || err.Error() != tt.want {
				t.Fatalf("decode = %v, %v; want a *WireError %q", m, err, tt.want)
			}
		})
	}
}

// TestBuffers: frames after the content are the message's buffers.
func TestBuffers(t *testing.T) {
	s := signer{key: []byte("k")}
	frames := append(sample(s), []byte("buf0"), []byte("buf1"))
	m, err := s.decode(frames)
	if err != nil || len(m.Buffers) != 2 || string(m.Buffers[1]) != "buf1" {
		t.Fatalf("decode with two buffers = %+v, %v; want buffers buf0, buf1", m, err)
	}
	if m, _ := s.decode(sample(s)); m.Buffers != nil {
		t.Errorf("no buffers decoded as %q, want none", m.Buffers)
	}
}

func TestReplayGuard(t *testing.T) {
	g := newReplayGuard(3)
	for _, s := range []string{"a", "b", "c"} {
		if !g.fresh([]byte(s)) {
			t.Fatalf("fresh(%q) first time = false, want true", s)
		}
	}
	if g.fresh([]byte("b")) {
		t.Errorf("fresh(b) again = true, want false (replay)")
	}
	g.fresh([]byte("d")) // evicts "a", the oldest
	if !g.fresh([]byte("a")) {
		t.Errorf("fresh(a) after eviction = false, want true (memory is bounded)")
	}
	if len(g.seen) > 3 || len(g.ring) > 3 {
		t.Errorf("guard holds %d/%d signatures, want at most 3", len(g.seen), len(g.ring))
	}
}

// FuzzDecode: any frames give a message or an error, never a panic; a
// decoded message re-encodes to frames that decode to the same message.
func FuzzDecode(f *testing.F) {
	s := signer{key: []byte("fuzz")}
	f.Add(join(sample(s)))
	f.Add(join(sample(signer{})))
	f.Add([]byte("<IDS|MSG>\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		frames := bytes.Split(data, []byte{0})
		for _, sg := range []signer{s, {}} {
			m, err := sg.decode(frames)
			if err != nil {
				continue
			}
			back, err := sg.decode(sg.encode(m.Identities, m.RawHeader, m.Parent, m.Metadata, m.Content))
			if err != nil {
				t.Fatalf("re-decode: %v", err)
			}
			if back.Header != m.Header || !json.Valid(back.Content) {
				t.Fatalf("round trip changed the header: %+v vs %+v", back.Header, m.Header)
			}
		}
	})
}

func join(frames [][]byte) []byte { return bytes.Join(frames, []byte{0}) }

func cloneFrames(in [][]byte) [][]byte {
	out := make([][]byte, len(in))
	for i, f := range in {
		out[i] = append([]byte(nil), f...)
	}
	return out
}

func replace(in [][]byte, i int, f []byte) [][]byte {
	out := cloneFrames(in)
	out[i] = f
	return out
}
