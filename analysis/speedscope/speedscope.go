// Package speedscope reads the speedscope file format (https://www.speedscope.app/file-format-schema.json):
// shared frames and a list of profiles, each "sampled" (stacks of frame
// indices with weights, in time order) or "evented" (open/close events at
// times). Evented profiles become one sample per interval between events,
// holding the stack open in it and weighing the interval's length.
//
// A file with several profiles loads its active one (activeProfileIndex,
// else the first), with a note naming the others; LoadOptions.Profile picks
// another by index or name, or "all" of them, one thread per profile
// (labelled with its name), when their units agree in kind (all times, all
// bytes, or all the same other unit).
// Times become nanoseconds; profiles in a time unit are time-ordered, each
// starting at its startValue.
//
// The file is read as leniently as speedscope reads it: a profile is decoded
// only when it is loaded, so that another profile of another shape does not
// stop it; a frame's line and column may be strings or null, and frame
// indices numbers with a zero fraction.
//
// A frame with a Python file is named "name (file:line)" and one with a
// JavaScript file "name file:line:col", so that the name splitters see the
// forms they know; other frames keep their name.
package speedscope

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "speedscope", Priority: 39, Sniff: sniff, Parse: parse})
}

// ssFile is a speedscope file. Its profiles are decoded one by one, only
// the ones loaded in full (ssHead gives the others' names and units), so
// that a profile speedscope would read is read even when another one has
// fields of another shape.
type ssFile struct {
	Shared struct {
		Frames []ssFrame `json:"frames"`
	} `json:"shared"`
	Raw                []json.RawMessage `json:"profiles"`
	ActiveProfileIndex *float64          `json:"activeProfileIndex"`

	Profiles []ssProfile // the heads of Raw; in full once loaded
}

type ssFrame struct {
	Name string     `json:"name"`
	File string     `json:"file"`
	Line looseInt64 `json:"line"`
	Col  looseInt64 `json:"col"`
}

// looseInt64 is a number as JavaScript reads one: a JSON number (its
// integer part), a string holding one, or null (0).
type looseInt64 int64

func (n *looseInt64) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case float64:
		*n = looseInt64(x)
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		*n = looseInt64(f)
	}
	return nil
}

// ssHead is what choosing a profile needs of it.
type ssHead struct {
	Name any `json:"name"`
	Unit any `json:"unit"`
}

type ssProfile struct {
	Type       string      `json:"type"`
	Name       string      `json:"name"`
	Unit       string      `json:"unit"`
	StartValue float64     `json:"startValue"`
	EndValue   float64     `json:"endValue"`
	Samples    [][]float64 `json:"samples"`
	Weights    []float64   `json:"weights"`
	Events     []ssEvent   `json:"events"`
}

type ssEvent struct {
	Type  string  `json:"type"`
	Frame float64 `json:"frame"`
	At    float64 `json:"at"`
}

func sniff(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	has := func(s string) bool { return bytes.Contains(h, []byte(s)) }
	return has("speedscope.app/file-format-schema") ||
		has(`"shared"`) && (has(`"profiles"`) || has(`"frames"`))
}

// ssScale gives, per unit, the value type and the factor to its unit.
var ssScale = map[string]struct {
	vt     analysis.ValueType
	factor float64
}{
	"nanoseconds":  {analysis.ValueType{Type: "wall", Unit: "nanoseconds"}, 1},
	"microseconds": {analysis.ValueType{Type: "wall", Unit: "nanoseconds"}, 1e3},
	"milliseconds": {analysis.ValueType{Type: "wall", Unit: "nanoseconds"}, 1e6},
	"seconds":      {analysis.ValueType{Type: "wall", Unit: "nanoseconds"}, 1e9},
	"bytes":        {analysis.ValueType{Type: "space", Unit: "bytes"}, 1},
}

// ssUnit returns the value type and scale of a profile's unit.
func ssUnit(unit string) (analysis.ValueType, float64) {
	if s, ok := ssScale[unit]; ok {
		return s.vt, s.factor
	}
	if unit == "" {
		unit = "none"
	}
	return analysis.ValueType{Type: "weight", Unit: unit}, 1
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name := in.Name
	var f ssFile
	if err := json.Unmarshal(in.Data, &f); err != nil {
		return nil, jsonprof.Error(name, in.Data, "a speedscope file object", err)
	}
	if len(f.Raw) == 0 {
		return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: `expected at least one profile in "profiles"`}
	}
	f.heads()
	chosen, note, err := ssChoose(&f, in.Profile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, i := range chosen {
		if err := json.Unmarshal(f.Raw[i], &f.Profiles[i]); err != nil {
			return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: fmt.Sprintf("profiles[%d]: %s", i, jsonprof.Detail(err))}
		}
	}
	vt, _ := ssUnit(f.Profiles[chosen[0]].Unit)
	b := in.NewBuilder(vt)
	if note != "" {
		b.Note(note)
	}
	c := ssConv{b: b, frames: f.Shared.Frames, ids: make([]int32, len(f.Shared.Frames))}
	for i := range c.ids {
		c.ids[i] = -1
	}
	var out []jsonprof.Sample
	for _, i := range chosen {
		p := &f.Profiles[i]
		thread := ""
		if len(chosen) > 1 {
			thread = ssLabel(f.Profiles, i)
		}
		var err error
		if out, err = c.profile(p, thread, out); err != nil {
			return nil, &analysis.SyntaxError{File: name, Offset: -1, Msg: fmt.Sprintf("profiles[%d]: %v", i, err)}
		}
	}
	timed := vt.Unit == "nanoseconds"
	jsonprof.AddWeighted(b, out, timed)
	if timed {
		for _, i := range chosen {
			p := &f.Profiles[i]
			_, scale := ssUnit(p.Unit)
			b.Profile().Duration = max(b.Profile().Duration, jsonprof.Duration(int64((p.EndValue-p.StartValue)*scale)))
		}
	}
	if c.rounded {
		b.Warn("fractional weights were rounded to whole " + vt.Unit)
	}
	return b.Finish(), nil
}

// ssChoose picks the profiles to load: the one want names (an index or a
// name), all of them for "all" (when their units agree in kind), else the
// active one (activeProfileIndex, else the first). note says what was
// chosen when the file holds several.
func ssChoose(f *ssFile, want string) (chosen []int, note string, err error) {
	n := len(f.Profiles)
	switch {
	case want == "all":
		vt, _ := ssUnit(f.Profiles[0].Unit)
		for i, p := range f.Profiles {
			if v, _ := ssUnit(p.Unit); v != vt {
				return nil, "", fmt.Errorf("profile=all: the file's profiles have different units (%s, %s): load one of %s",
					f.Profiles[0].Unit, p.Unit, ssList(f.Profiles))
			}
			chosen = append(chosen, i)
		}
		return chosen, fmt.Sprintf("loaded all %d profiles of the file, one thread each", n), nil
	case want != "":
		i := ssFind(f.Profiles, want)
		if i < 0 {
			return nil, "", fmt.Errorf("profile=%s: the file has no such profile; it has %s", want, ssList(f.Profiles))
		}
		chosen = []int{i}
	default:
		active := 0
		if a := f.ActiveProfileIndex; a != nil && *a >= 0 && *a < float64(n) {
			active = int(*a)
		}
		chosen = []int{active}
	}
	if n > 1 {
		i := chosen[0]
		note = fmt.Sprintf("the file holds %d profiles; loaded profile %d, %q%s (load with profile=N, NAME or all for the others: %s)",
			n, i, f.Profiles[i].Name, map[bool]string{true: ", the active one"}[want == ""], ssList(f.Profiles))
	}
	return chosen, note, nil
}

// heads reads each profile's name and unit; a profile whose head is not
// an object keeps empty ones.
func (f *ssFile) heads() {
	f.Profiles = make([]ssProfile, len(f.Raw))
	for i, raw := range f.Raw {
		var h ssHead
		if json.Unmarshal(raw, &h) == nil {
			f.Profiles[i].Name, _ = h.Name.(string)
			f.Profiles[i].Unit, _ = h.Unit.(string)
		}
	}
}

// ssFind returns the index of the profile want names, by index or by
// name; -1 when none.
func ssFind(ps []ssProfile, want string) int {
	if i, err := strconv.Atoi(want); err == nil {
		if i >= 0 && i < len(ps) {
			return i
		}
		return -1
	}
	for i := range ps {
		if ps[i].Name == want {
			return i
		}
	}
	return -1
}

// ssList lists the profiles as `0 "name", 1 "name"`.
func ssList(ps []ssProfile) string {
	parts := make([]string, len(ps))
	for i := range ps {
		parts[i] = fmt.Sprintf("%d %q", i, ps[i].Name)
	}
	return strings.Join(parts, ", ")
}

// ssLabel names profile i's thread: its name, made unique with its index.
func ssLabel(ps []ssProfile, i int) string {
	l := ps[i].Name
	if l == "" {
		l = "profile " + strconv.Itoa(i)
	}
	for j := range ps {
		if j != i && ps[j].Name == ps[i].Name {
			return l + " #" + strconv.Itoa(i)
		}
	}
	return l
}

// ssConv converts profiles into one builder.
type ssConv struct {
	b       *analysis.Builder
	frames  []ssFrame
	ids     []int32 // frame index → frame id, -1 until used
	stack   []int32
	rounded bool
}

func (c *ssConv) profile(p *ssProfile, thread string, out []jsonprof.Sample) ([]jsonprof.Sample, error) {
	_, scale := ssUnit(p.Unit)
	switch p.Type {
	case "sampled":
		return c.sampled(p, scale, thread, out)
	case "evented":
		return c.evented(p, scale, thread, out)
	}
	return nil, fmt.Errorf(`expected "type" to be "sampled" or "evented", found %q`, p.Type)
}

func (c *ssConv) sampled(p *ssProfile, scale float64, thread string, out []jsonprof.Sample) ([]jsonprof.Sample, error) {
	if len(p.Samples) != len(p.Weights) {
		return nil, fmt.Errorf("expected one weight per sample, found %d samples and %d weights", len(p.Samples), len(p.Weights))
	}
	at := p.StartValue
	for i, s := range p.Samples {
		c.stack = c.stack[:0]
		for j, fi := range s {
			id, err := c.frame(fi)
			if err != nil {
				return nil, fmt.Errorf("samples[%d][%d]: %v", i, j, err)
			}
			c.stack = append(c.stack, id)
		}
		w := p.Weights[i]
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("weights[%d]: expected a finite weight ≥ 0, found %v", i, w)
		}
		out = append(out, jsonprof.Sample{Stack: c.b.Stack(c.stack), Weight: c.scaled(w, scale), Time: c.scaled(at-p.StartValue, scale), Thread: thread})
		at += w
	}
	return out, nil
}

func (c *ssConv) evented(p *ssProfile, scale float64, thread string, out []jsonprof.Sample) ([]jsonprof.Sample, error) {
	c.stack = c.stack[:0]
	var open []float64 // frame indices
	last := p.StartValue
	for i, e := range p.Events {
		if e.At < last || math.IsNaN(e.At) {
			return nil, fmt.Errorf("events[%d]: expected times in order, found %v after %v", i, e.At, last)
		}
		if e.At > last && len(c.stack) > 0 {
			out = append(out, jsonprof.Sample{Stack: c.b.Stack(c.stack), Weight: c.scaled(e.At-last, scale), Time: c.scaled(last-p.StartValue, scale), Thread: thread})
		}
		last = e.At
		switch e.Type {
		case "O":
			id, err := c.frame(e.Frame)
			if err != nil {
				return nil, fmt.Errorf("events[%d]: %v", i, err)
			}
			open = append(open, e.Frame)
			c.stack = append(c.stack, id)
			c.b.Enter(thread, id, c.scaled(e.At-p.StartValue, scale))
		case "C":
			if len(open) == 0 || open[len(open)-1] != e.Frame {
				return nil, fmt.Errorf("events[%d]: closes frame %s at %v while %s is on top", i, c.frameName(e.Frame), e.At, c.top(open))
			}
			open = open[:len(open)-1]
			c.stack = c.stack[:len(c.stack)-1]
			c.b.Exit(thread, c.scaled(e.At-p.StartValue, scale))
		default:
			return nil, fmt.Errorf(`events[%d]: expected "type" "O" or "C", found %q`, i, e.Type)
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("expected every opened frame to be closed; the events end with %d open, %s on top", len(open), c.top(open))
	}
	return out, nil
}

func (c *ssConv) top(open []float64) string {
	if len(open) == 0 {
		return "no frame"
	}
	return c.frameName(open[len(open)-1])
}

func (c *ssConv) frameName(x float64) string {
	if i := int64(x); x == float64(i) && i >= 0 && i < int64(len(c.frames)) {
		return strconv.Quote(c.frames[i].Name)
	}
	return "#" + strconv.FormatFloat(x, 'g', -1, 64)
}

// frame returns the frame id of shared frame i.
func (c *ssConv) frame(x float64) (int32, error) {
	i := int64(x)
	if x != float64(i) || i < 0 || i >= int64(len(c.frames)) {
		return 0, fmt.Errorf("expected a frame index below %d, found %v", len(c.frames), x)
	}
	if c.ids[i] < 0 {
		c.ids[i] = c.b.Frame(ssFrameOf(&c.frames[i]))
	}
	return c.ids[i], nil
}

// ssFrameOf names a speedscope frame (see the file comment).
func ssFrameOf(f *ssFrame) analysis.Frame {
	name, line, col := f.Name, int64(f.Line), int64(f.Col)
	switch {
	case f.File == "" || name == "":
	case strings.HasSuffix(f.File, ".py"):
		name += " (" + f.File + ":" + strconv.FormatInt(line, 10) + ")"
	case jsFile(f.File) && line > 0:
		name += " " + f.File + ":" + strconv.FormatInt(line, 10) + ":" + strconv.FormatInt(col, 10)
	}
	return analysis.Frame{Name: name, File: f.File, Line: line}
}

// jsFile reports whether a file looks like a JavaScript script.
func jsFile(f string) bool {
	for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx"} {
		if strings.HasSuffix(f, ext) {
			return true
		}
	}
	return strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://") || strings.HasPrefix(f, "node:")
}

// scaled converts a value to the profile's unit, rounding to an integer.
func (c *ssConv) scaled(v, scale float64) int64 {
	x := v * scale
	r := math.Round(x)
	if r != x {
		c.rounded = true
	}
	return int64(r)
}
