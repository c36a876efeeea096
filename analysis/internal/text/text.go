// Package text holds what the text formats share: a line reader that does
// not copy, and small tests on bytes and strings for sniffers and error
// messages.
package text

import (
	"bytes"
	"context"
)

// Reader walks text content line by line without copying. Lines are
// numbered from 1; a trailing "\r" is dropped.
type Reader struct {
	Line  []byte // the line last returned, without its "\n" or "\r\n"
	N     int    // the number of the line last returned
	Ended bool   // whether the line last returned ended with "\n"

	ctx  context.Context
	data []byte
	pos  int
}

// NewReader returns a reader at the start of data that stops, as at the
// end of the data, once ctx has ended (it looks every 4096 lines); ctx may
// be nil.
func NewReader(ctx context.Context, data []byte) *Reader { return &Reader{ctx: ctx, data: data} }

// Next advances to the next line; it returns false at the end of the data
// or of the context.
func (r *Reader) Next() bool {
	if r.pos >= len(r.data) || r.N&4095 == 4095 && r.ctx != nil && r.ctx.Err() != nil {
		return false
	}
	rest := r.data[r.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		r.Line, r.pos, r.Ended = rest, len(r.data), false
	} else {
		r.Line, r.pos, r.Ended = rest[:i], r.pos+i+1, true
	}
	if n := len(r.Line); n > 0 && r.Line[n-1] == '\r' {
		r.Line = r.Line[:n-1]
	}
	r.N++
	return true
}

// Peek returns the next line without advancing, whether it ends with "\n",
// and false at the end.
func (r *Reader) Peek() (line []byte, ended, ok bool) {
	save := *r
	ok = r.Next()
	line, ended = r.Line, r.Ended
	*r = save
	return line, ended, ok
}

// Is reports whether head looks like text: no NUL bytes and mostly
// printable.
func Is(head []byte) bool {
	if len(head) == 0 {
		return false
	}
	bad := 0
	for _, c := range head {
		if c == 0 {
			return false
		}
		if c < 0x09 || (c > 0x0d && c < 0x20) {
			bad++
		}
	}
	return bad*100 < len(head)
}

// Digits reports whether s is a non-empty run of decimal digits.
func Digits[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Clip shortens s for an error message.
func Clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
