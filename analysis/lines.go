package analysis

import "bytes"

// lineReader walks text content line by line without copying. Lines are
// numbered from 1; a trailing "\r" is dropped.
type lineReader struct {
	data []byte
	pos  int
	n    int    // number of the line last returned
	line []byte // the line last returned
	// ended reports whether the last line returned was terminated by "\n".
	ended bool
}

func newLineReader(data []byte) *lineReader { return &lineReader{data: data} }

// next advances to the next line; it returns false at the end of the data.
func (r *lineReader) next() bool {
	if r.pos >= len(r.data) {
		return false
	}
	rest := r.data[r.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		r.line, r.pos, r.ended = rest, len(r.data), false
	} else {
		r.line, r.pos, r.ended = rest[:i], r.pos+i+1, true
	}
	if n := len(r.line); n > 0 && r.line[n-1] == '\r' {
		r.line = r.line[:n-1]
	}
	r.n++
	return true
}

// peek returns the next line without advancing, and false at the end.
func (r *lineReader) peek() ([]byte, bool) {
	save := *r
	ok := r.next()
	line := r.line
	*r = save
	return line, ok
}

// isText reports whether head looks like text: no NUL bytes and mostly
// printable.
func isText(head []byte) bool {
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
