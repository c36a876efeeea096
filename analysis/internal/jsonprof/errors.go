package jsonprof

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/proflens/proflens/analysis"
)

// Error turns a decoding error into a SyntaxError naming the byte offset,
// the JSON path where known, and what was expected.
func Error(name string, data []byte, what string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &analysis.SyntaxError{File: name, Offset: se.Offset, Msg: "expected " + what + " (invalid JSON)", Err: err}
	case errors.As(err, &te):
		return &analysis.SyntaxError{File: name, Offset: te.Offset, Msg: fmt.Sprintf("expected %s at %s, found JSON %s", te.Type, path(te.Field), te.Value)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &analysis.SyntaxError{File: name, Offset: int64(len(data)), Msg: "expected " + what + ", file ends early", Err: err}
	}
	return &analysis.SyntaxError{File: name, Offset: -1, Msg: "expected " + what, Err: err}
}

// Detail describes a decoding error inside a value: what was expected
// where, without Go type names where possible.
func Detail(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("expected %s at %s, found JSON %s", te.Type, path(te.Field), te.Value)
	}
	return err.Error()
}

// path shows a decoder field path ("nodes.3.id"), "the top level" when empty.
func path(field string) string {
	if field == "" {
		return "the top level"
	}
	return strconv.Quote(field)
}
