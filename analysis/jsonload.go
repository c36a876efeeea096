package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"
)

// Helpers shared by the JSON loaders (v8.go, chrome.go, speedscope.go).

// timedSample is one converted sample before it is added in time order.
type timedSample struct {
	stack  int32
	wall   int64 // nanoseconds until the next sample of the same thread
	time   int64 // nanoseconds since the profile's origin
	thread string
}

// addTimed adds samples to b in time order (stable for equal times).
func addTimed(b *Builder, out []timedSample) {
	less := func(i, j int) bool { return out[i].time < out[j].time }
	if !sort.SliceIsSorted(out, less) {
		sort.SliceStable(out, less)
	}
	b.Grow(len(out))
	for _, s := range out {
		b.Add(s.stack, []int64{1, s.wall}, s.time, true, s.thread, nil)
	}
}

// meanPeriod returns the mean wall time per sample, in nanoseconds.
func meanPeriod(out []timedSample) int64 {
	if len(out) < 2 {
		return 0
	}
	var sum int64
	for _, s := range out {
		sum += s.wall
	}
	return sum / int64(len(out)-1)
}

func usToNs(us float64) int64 { return int64(us * 1000) }

func durationNs(ns int64) time.Duration {
	if ns < 0 {
		return 0
	}
	return time.Duration(ns)
}

// jsonError turns a decoding error into a SyntaxError naming the byte offset,
// the JSON path where known, and what was expected.
func jsonError(name string, data []byte, what string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &SyntaxError{File: name, Offset: se.Offset, Msg: "expected " + what + " (invalid JSON)", Err: err}
	case errors.As(err, &te):
		return &SyntaxError{File: name, Offset: te.Offset, Msg: fmt.Sprintf("expected %s at %s, found JSON %s", te.Type, jsonPath(te.Field), te.Value)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &SyntaxError{File: name, Offset: int64(len(data)), Msg: "expected " + what + ", file ends early", Err: err}
	}
	return &SyntaxError{File: name, Offset: -1, Msg: "expected " + what, Err: err}
}

// jsonPath shows a decoder field path ("nodes.3.id"), "the top level" when empty.
func jsonPath(field string) string {
	if field == "" {
		return "the top level"
	}
	return strconv.Quote(field)
}
