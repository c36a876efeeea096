// Package bounded reads a stream into memory within a cap on its length, so
// that what a read holds stays near the cap whatever the stream sends: an
// endless body, a device, a file that grows while it is read.
package bounded

import (
	"fmt"
	"io"
)

// TooLarge is the error of a stream longer than the cap.
type TooLarge struct{ Max int64 }

func (e *TooLarge) Error() string { return fmt.Sprintf("more than the limit of %d bytes", e.Max) }

// chunk bounds the pieces of a stream of unknown length.
const (
	firstChunk = 64 << 10
	lastChunk  = 8 << 20
)

// ReadAll reads r to its end and returns its bytes, or a *TooLarge once more
// than limit bytes have come. size, when positive, is the length the stream
// announces (a regular file's size, a Content-Length, gzip's trailer): the
// read then makes one allocation of that length, capped at limit. A stream of
// unknown or wrong length is read in pieces that double up to 8 MiB and are
// joined at its end, so a refused stream never holds more than limit bytes,
// and an accepted one holds twice its length only while it is joined.
func ReadAll(r io.Reader, limit, size int64) ([]byte, error) {
	var pieces [][]byte
	var total int64
	n := int64(firstChunk)
	if size > 0 {
		n = min(size, limit) + 1 // one byte more shows whether the stream is longer
	}
	for {
		piece := make([]byte, min(n, limit+1-total))
		k, err := fill(r, piece)
		total += int64(k)
		if total > limit {
			return nil, &TooLarge{Max: limit}
		}
		pieces = append(pieces, piece[:k])
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		n = min(max(2*n, firstChunk), lastChunk)
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	out := make([]byte, 0, total)
	for i, p := range pieces {
		out = append(out, p...)
		pieces[i] = nil
	}
	return out, nil
}

// fill reads into p until it is full or r fails; io.EOF is the end of r
// (unlike io.ReadFull, whose io.ErrUnexpectedEOF cannot be told from a
// reader's own, such as a truncated gzip stream's).
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.Read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
