package analysis

import (
	"fmt"
	"strings"
)

// SyntaxError is bad input with its position: a 1-based line for text
// formats, or a byte offset for binary ones. Loaders return it (possibly
// wrapped) so that every message names the file, the place and what was
// expected.
type SyntaxError struct {
	File   string
	Line   int   // 1-based line; 0 when Offset is used or unknown
	Offset int64 // byte offset; -1 when unknown
	Msg    string
	Err    error // underlying cause, if any
}

// Error gives "FILE: line N: MSG[: CAUSE]" (or "byte N").
func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ": line %d", e.Line)
	case e.Offset >= 0:
		fmt.Fprintf(&b, ": byte %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying cause, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// LineError returns a SyntaxError at a 1-based line.
func LineError(file string, line int, format string, args ...any) error {
	return &SyntaxError{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// OffsetError returns a SyntaxError at a byte offset, wrapping err.
func OffsetError(file string, off int64, err error, format string, args ...any) error {
	return &SyntaxError{File: file, Offset: off, Msg: fmt.Sprintf(format, args...), Err: err}
}
