package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
)

// delimiter separates routing identities from the message proper.
var delimiter = []byte("<IDS|MSG>")

// Header is a message header. See
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#message-header
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one decoded wire message. The raw JSON frames are kept as
// received, so the header can be echoed byte for byte as a reply's parent.
type Message struct {
	Identities [][]byte // routing prefix (ROUTER) or topic (PUB)
	Signature  []byte   // hex HMAC as received
	Header     Header
	RawHeader  json.RawMessage
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte
}

// WireError says why frames are not a valid message. Frame is the index of
// the offending frame (-1 when the problem is the frame count).
type WireError struct {
	Frame int
	Msg   string
	Err   error
}

func (e *WireError) Error() string {
	s := fmt.Sprintf("wire message: frame %d: %s", e.Frame, e.Msg)
	if e.Frame < 0 {
		s = "wire message: " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *WireError) Unwrap() error { return e.Err }

// ErrSignature is wrapped by decode errors about a missing or wrong HMAC.
var ErrSignature = errors.New("bad signature")

// signer signs and verifies messages with HMAC-SHA256; an empty key turns
// signing off, as the protocol specifies.
type signer struct {
	key []byte
}

// on reports whether messages are signed (and replays can be told apart).
func (s signer) on() bool { return len(s.key) > 0 }

// mac returns the hex HMAC of the four JSON frames, or nil when signing is off.
func (s signer) mac(header, parent, metadata, content []byte) []byte {
	if len(s.key) == 0 {
		return nil
	}
	var h hash.Hash = hmac.New(sha256.New, s.key)
	h.Write(header)
	h.Write(parent)
	h.Write(metadata)
	h.Write(content)
	out := make([]byte, hex.EncodedLen(sha256.Size))
	hex.Encode(out, h.Sum(nil))
	return out
}

// verify checks sig against the four frames in constant time.
func (s signer) verify(sig, header, parent, metadata, content []byte) bool {
	if len(s.key) == 0 {
		return true
	}
	return hmac.Equal(sig, s.mac(header, parent, metadata, content))
}

// decode splits frames at the delimiter, checks the signature and parses the
// header. It never panics: any input gives a message or a *WireError.
func (s signer) decode(frames [][]byte) (*Message, error) {
	d := -1
	for i, f := range frames {
		if bytes.Equal(f, delimiter) {
			d = i
			break
		}
	}
	if d < 0 {
		return nil, &WireError{Frame: -1, Msg: "no <IDS|MSG> delimiter"}
	}
	if len(frames)-d-1 < 5 {
		return nil, &WireError{Frame: -1, Msg: fmt.Sprintf("%d frames after the delimiter, want at least 5 (signature, header, parent, metadata, content)", len(frames)-d-1)}
	}
	f := frames[d+1:]
	m := &Message{Identities: frames[:d], Signature: f[0], RawHeader: f[1], Parent: f[2], Metadata: f[3], Content: f[4]}
	if len(s.key) > 0 && len(m.Signature) == 0 {
		return nil, &WireError{Frame: d + 1, Msg: "unsigned message", Err: ErrSignature}
	}
	if !s.verify(m.Signature, f[1], f[2], f[3], f[4]) {
		return nil, &WireError{Frame: d + 1, Msg: "HMAC does not match", Err: ErrSignature}
	}
	if err := json.Unmarshal(f[1], &m.Header); err != nil {
		return nil, &WireError{Frame: d + 2, Msg: "header is not a JSON object", Err: err}
	}
	if m.Header.MsgType == "" || m.Header.MsgID == "" {
		return nil, &WireError{Frame: d + 2, Msg: "header lacks msg_type or msg_id"}
	}
	for i, name := range []string{"parent header", "metadata", "content"} {
		if !isObject(f[2+i]) {
			return nil, &WireError{Frame: d + 3 + i, Msg: name + " is not a JSON object"}
		}
	}
	if len(f) > 5 {
		m.Buffers = f[5:]
	}
	return m, nil
}

// isObject reports whether b is one valid JSON object.
func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) >= 2 && b[0] == '{' && json.Valid(b)
}

// encode returns the frames of a message: ids, delimiter, HMAC, header,
// parent, metadata, content.
func (s signer) encode(ids [][]byte, header, parent, metadata, content []byte) [][]byte {
	frames := make([][]byte, 0, len(ids)+6)
	frames = append(frames, ids...)
	sig := s.mac(header, parent, metadata, content)
	if sig == nil {
		sig = []byte{}
	}
	return append(frames, delimiter, sig, header, parent, metadata, content)
}
