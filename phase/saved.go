package phase

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Saved is a phase set as written by `phases save=FILE.json` and read back
// by `using=FILE.json` (JIVE's future work, seed 003 §8: consistent colours
// and labels across runs). Times are in nanoseconds since the profile's
// start; for a series, interval i is [i, i+1).
type Saved struct {
	Params    SavedParams     `json:"params"`
	Phases    []SavedPhase    `json:"phases"`
	Intervals []SavedInterval `json:"intervals"`
}

// SavedParams records how the set was computed.
type SavedParams struct {
	Window   int     `json:"window"`
	Eps      float64 `json:"eps"`
	Delta    float64 `json:"delta"`
	Count    string  `json:"count"`
	Interval int64   `json:"interval"` // ns; 0 for a series
}

// SavedPhase is one phase: its id, label, colour and phase vector (name →
// weight, unit length; empty for the empty phase).
type SavedPhase struct {
	ID     int                `json:"id"`
	Label  string             `json:"label"`
	Color  string             `json:"color"`
	Vector map[string]float64 `json:"vector"`
}

// SavedInterval is one interval and its phase.
type SavedInterval struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	Phase int   `json:"phase"`
}

// Save describes r over v's intervals. Weights keep full precision (JSON
// round-trips a float64 exactly), so a reused phase matches as it did;
// phases without intervals in this run are kept when they came from a saved
// set, so labels survive a chain of runs.
func Save(r *Result, v *Vectors, count Count) *Saved {
	s := &Saved{Params: SavedParams{Window: r.Params.Window, Eps: r.Params.Eps, Delta: r.Params.Delta, Count: count.String()}}
	if !v.Series && v.Len() > 0 {
		s.Params.Interval = v.Intervals[0].End - v.Intervals[0].Start
	}
	for _, ph := range r.Phases {
		if ph.Intervals == 0 && !ph.Saved {
			continue
		}
		sp := SavedPhase{ID: ph.ID, Label: ph.Label, Color: ph.Color, Vector: map[string]float64{}}
		for j, x := range ph.Vector() {
			if x != 0 {
				sp.Vector[r.Names[j]] = x
			}
		}
		s.Phases = append(s.Phases, sp)
	}
	for i, id := range r.Of {
		s.Intervals = append(s.Intervals, SavedInterval{v.Intervals[i].Start, v.Intervals[i].End, int(id)})
	}
	return s
}

// Write encodes s as indented JSON (map keys sorted, so the bytes are
// deterministic).
func (s *Saved) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(s)
}

// DefaultMaxSavedBytes is the most bytes ReadSaved reads when given 0:
// a saved set of DefaultIntervals intervals takes tens of kilobytes, one of
// DefaultMaxIntervals about 70 MB.
const DefaultMaxSavedBytes = 64 << 20

// ReadSaved reads at most maxBytes (0 for DefaultMaxSavedBytes) of r, then
// decodes and checks a saved phase set; errors name the byte offset or the
// phase at fault. A longer input is a *LimitError (Limit "bytes") read no
// further than the limit.
func ReadSaved(r io.Reader, maxBytes int64) (*Saved, error) {
	if maxBytes < 0 {
		return nil, fmt.Errorf("max bytes %d: want a positive number (0 for the default)", maxBytes)
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxSavedBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxBytes {
		return nil, &LimitError{Limit: "bytes", Need: int64(len(data)), Max: maxBytes,
			Msg: fmt.Sprintf("more than the limit of %d bytes: want a saved phase set (phases save=FILE.json)", maxBytes)}
	}
	return decodeSaved(data)
}

// decodeSaved decodes and checks a saved phase set.
func decodeSaved(data []byte) (*Saved, error) {
	var s Saved
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("byte %d: %w", se.Offset, err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("byte %d: %w", te.Offset, err)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, fmt.Errorf("byte %d: want a complete JSON object: %w", len(data), err)
		}
		return nil, err
	}
	seen := map[int]bool{}
	for k, ph := range s.Phases {
		if ph.ID < 0 || seen[ph.ID] {
			return nil, fmt.Errorf("phases[%d]: id %d: want distinct ids ≥ 0", k, ph.ID)
		}
		seen[ph.ID] = true
		for name, x := range ph.Vector {
			if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("phases[%d] (id %d): weight of %q is %v: want a finite number ≥ 0", k, ph.ID, name, x)
			}
		}
	}
	return &s, nil
}

// Seed turns the saved phases into phases for Detect over the given names.
// A saved vector keeps its full length, so names absent from this run still
// count against a match (they are zero in this run's windows). The phases'
// vectors (saved phases × names, twice) are checked against maxCells (0 for
// DefaultMaxCells) before they are made.
func (s *Saved) Seed(names []string, maxCells int) ([]*Phase, error) {
	if maxCells < 0 {
		return nil, fmt.Errorf("max cells %d: want a positive number (0 for the default)", maxCells)
	}
	if err := checkCells(2*len(s.Phases), len(names), bound(maxCells, DefaultMaxCells, cellBytes)); err != nil {
		return nil, fmt.Errorf("saved phases: %w", err)
	}
	index := make(map[string]int, len(names))
	for j, n := range names {
		index[n] = j
	}
	var out []*Phase
	for _, sp := range s.Phases {
		ph := &Phase{ID: sp.ID, Label: sp.Label, Color: sp.Color, Saved: true, samples: math.Inf(1),
			Sum: make([]float64, len(names)), ref: make([]float64, len(names))}
		for name, x := range sp.Vector {
			ph.refSq += x * x
			if j, ok := index[name]; ok {
				ph.ref[j] = x
			}
		}
		out = append(out, ph)
	}
	return out, nil
}
