package avid

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sampling is what the paper's control file sets for one range of a
// recording (seed 001, §2.2), memory and control-flow events apart. For
// control-flow events (entries and exits), Kind is
//   - "C-1": keep every Every-th event; the thinned recording replays the
//     events it kept, so an entry's caller is whatever the kept events left
//     on the stack;
//   - "C-2": snapshot the call stack of the thread of every Every-th event;
//     entries are recovered by diffing snapshots;
//   - "C-3": snapshot every thread's call stack every Every nanoseconds
//     from the range's first event;
//   - "trace": keep every event; "": keep none.
//
// For memory events (allocations and deallocations), Memory is
//   - "M-1": keep every MemoryEvery-th memory event;
//   - "M-2": keep the first memory event at or after every MemoryEvery-th
//     nanosecond from the range's start;
//   - "trace": keep every memory event; "": keep none;
//
// and Snap (the paper's M-3, with M-1 or M-2) snapshots the call stack at
// each memory event kept, as C-2 does at an event: the event keeps its
// context. Without Snap, a memory event kept by M-1 or M-2 keeps its class
// (the allocating frame, where the recording names no class) and no stack.
type Sampling struct {
	Kind        string
	Every       int64
	Memory      string
	MemoryEvery int64
	Snap        bool
}

// Trace is the sampling that keeps every event: the parts of a recording
// outside a control's ranges, unless the control says otherwise.
var Trace = Sampling{Kind: "trace", Memory: "trace"}

func (s Sampling) String() string {
	var parts []string
	switch s.Kind {
	case "":
	case "trace":
		if s.Memory == "trace" {
			return "trace"
		}
		parts = append(parts, "control flow traced")
	case "C-3":
		parts = append(parts, fmt.Sprintf("C-3 every %v", time.Duration(s.Every)))
	default:
		parts = append(parts, fmt.Sprintf("%s every %d events", s.Kind, s.Every))
	}
	m := ""
	switch s.Memory {
	case "":
	case "trace":
		m = "memory traced"
	case "M-2":
		m = fmt.Sprintf("M-2 every %v", time.Duration(s.MemoryEvery))
	default:
		m = fmt.Sprintf("%s every %d memory events", s.Memory, s.MemoryEvery)
	}
	if s.Snap {
		m = "M-3 (" + m + ")"
	}
	if m != "" {
		parts = append(parts, m)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// samplingWords are the words of a sampling, as `sample` takes them and a
// control's lines hold them.
const samplingWords = "c1=N, c2=N, c3=DURATION, m1=N, m2=DURATION, m3=N or m3=DURATION (M-3 with M-1 or M-2), trace, or nothing"

// ParseSampling reads a sampling from words: c1=N, c2=N and c3=D (at most
// one), m1=N, m2=D, m3=N (M-3 with M-1) and m3=D (M-3 with M-2) (at most
// one), trace (every event of both kinds), nothing (no event). N is a
// whole number of events, D a duration with its unit (10ms). A kind of
// event no word names is not kept.
func ParseSampling(words []string) (Sampling, error) {
	switch {
	case len(words) == 0:
		return Sampling{}, fmt.Errorf("no sampling: write %s", samplingWords)
	case len(words) == 1 && words[0] == "trace":
		return Trace, nil
	case len(words) == 1 && words[0] == "nothing":
		return Sampling{}, nil
	}
	var s Sampling
	for _, w := range words {
		if err := s.word(w); err != nil {
			return Sampling{}, err
		}
	}
	return s, nil
}

// word adds one word to s.
func (s *Sampling) word(w string) error {
	key, val, _ := strings.Cut(w, "=")
	switch key {
	case "trace", "nothing":
		return fmt.Errorf("%s stands alone: it is the whole sampling", key)
	case "c1", "c2", "c3":
		if s.Kind != "" {
			return fmt.Errorf("%s: a range has one control-flow sampling, and %s is given already", w, s.Kind)
		}
		n, err := samplingValue(w, val, key == "c3")
		s.Kind, s.Every = "C-"+key[1:], n
		return err
	case "m1", "m2", "m3":
		if s.Memory != "" {
			return fmt.Errorf("%s: a range has one memory sampling, and %s is given already", w, s.Memory)
		}
		_, durErr := time.ParseDuration(val)
		timed := key == "m2" || key == "m3" && durErr == nil
		n, err := samplingValue(w, val, timed)
		s.Memory, s.MemoryEvery, s.Snap = "M-1", n, key == "m3"
		if timed {
			s.Memory = "M-2"
		}
		return err
	}
	return fmt.Errorf("%q is not a sampling: write %s", w, samplingWords)
}

// samplingValue reads the x of a sampling word: a whole number of events
// from 1, or a duration above 0.
func samplingValue(w, val string, duration bool) (int64, error) {
	if duration {
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("%s: write a duration above 0 with its unit, such as 10ms", w)
		}
		return int64(d), nil
	}
	var n int64
	if _, err := fmt.Sscan(val, &n); err != nil || n < 1 || fmt.Sprint(n) != val {
		return 0, fmt.Errorf("%s: write a whole number of events, 1 or more", w)
	}
	return n, nil
}

// ErrNotEvented says a profile has no calls to thin.
var ErrNotEvented = errors.New("control-flow sampling thins an evented recording (a Chrome trace's B/E/X spans, " +
	"a speedscope evented profile), and this profile has no calls")

// ErrNoMemory says a profile has no memory events to sample.
var ErrNoMemory = errors.New("memory sampling needs memory events (JFR allocation events, a Chrome trace's N/D " +
	"object events, a series of heap profiles), and this profile has none")
