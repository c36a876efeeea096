// Package pyinstrument reads the files of pyinstrument, the statistical
// profiler for Python (https://github.com/joerick/pyinstrument), in its
// three JSON shapes:
//
//   - a session (pyinstrument -r session, .pyisession; Session.to_json):
//     "frame_records", each a stack of frame infos, root first, and the
//     seconds it took; the samples keep the file's order and their times;
//   - the data of its HTML renderer (JSONForHTMLRenderer): "session" and
//     "frame_tree", a tree of nodes with their inclusive seconds ("time"),
//     in which "[self]" nodes hold their parent's own time;
//   - its JSON renderer (-r json): "root_frame", a tree of nodes with
//     "function", "file_path", "line_no" and inclusive "time".
//
// A frame info is "function\x00file\x00line", with invocation attributes
// after "\x01" (the line executed, the class), which are not part of the
// frame; a frame is named as py-spy names Python frames, "function
// (file:line)", line being the function's first line. A tree node's own
// time is its time less its children's, never below zero. "[await]" and
// "[out-of-context]" nodes are frames of their own. The session's
// start_time, duration and sample_count are the profile's; the renderers'
// trees are already processed by pyinstrument (small nodes removed, library
// frames grouped), which info says.
package pyinstrument

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "pyinstrument", Priority: 38, Sniff: sniff, Parse: parse})
}

func sniff(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	has := func(s string) bool { return bytes.Contains(h, []byte(s)) }
	return has(`"frame_records"`) || has(`"frame_tree"`) || has(`"root_frame"`) && has(`"sample_count"`)
}

// file is any of the three shapes.
type file struct {
	session
	Session      *session    `json:"session"`
	FrameRecords []record    `json:"frame_records"`
	FrameTree    *node       `json:"frame_tree"`
	RootFrame    *renderNode `json:"root_frame"`
}

// session holds what a session says of the run.
type session struct {
	StartTime   float64 `json:"start_time"`
	Duration    float64 `json:"duration"`
	SampleCount int64   `json:"sample_count"`
	Target      string  `json:"target_description"`
	Program     string  `json:"program"`
	CPUTime     float64 `json:"cpu_time"`
}

// record is one frame record: [[frame info, ...], seconds].
type record struct {
	stack []string
	time  float64
}

func (r *record) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return fmt.Errorf("expected a frame record [[frame info, ...], seconds]")
	}
	if err := json.Unmarshal(raw[0], &r.stack); err != nil {
		return fmt.Errorf("expected a list of frame infos: %v", jsonprof.Detail(err))
	}
	if err := json.Unmarshal(raw[1], &r.time); err != nil {
		return fmt.Errorf("expected the record's seconds: %v", jsonprof.Detail(err))
	}
	return nil
}

// node is a node of the HTML renderer's tree.
type node struct {
	Identifier string  `json:"identifier"`
	Time       float64 `json:"time"`
	Children   []*node `json:"children"`
}

// renderNode is a node of the JSON renderer's tree.
type renderNode struct {
	Function string        `json:"function"`
	FilePath string        `json:"file_path"`
	LineNo   int64         `json:"line_no"`
	Time     float64       `json:"time"`
	Children []*renderNode `json:"children"`
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	var f file
	if err := json.Unmarshal(in.Data, &f); err != nil {
		return nil, jsonprof.Error(in.Name, in.Data, "a pyinstrument session or renderer object", err)
	}
	s := &f.session
	if f.Session != nil {
		s = f.Session
	}
	c := &conv{b: in.NewBuilder(analysis.ValueType{Type: "wall", Unit: "nanoseconds"}), frames: map[string]int32{}}
	c.b.Profile().Lang = analysis.LangPython
	switch {
	case f.FrameRecords != nil:
		c.records(f.FrameRecords)
	case f.FrameTree != nil:
		c.tree(f.FrameTree, 0)
		c.b.Note("pyinstrument's HTML renderer data: a tree that pyinstrument has already processed (small calls removed, library calls grouped); the samples are not in it")
	case f.RootFrame != nil:
		c.renderTree(f.RootFrame, 0)
		c.b.Note("pyinstrument's JSON renderer output: a tree that pyinstrument has already processed (small calls removed, library calls grouped); the samples are not in it")
	default:
		return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: `expected "frame_records", "frame_tree" or "root_frame"`}
	}
	c.facts(s)
	if c.err != nil {
		return nil, &analysis.SyntaxError{File: in.Name, Offset: -1, Msg: c.err.Error()}
	}
	return c.b.Finish(), nil
}

// conv converts one file.
type conv struct {
	b      *analysis.Builder
	frames map[string]int32 // frame info identifier → frame id
	stack  []int32
	err    error
}

// facts sets the profile's start and duration, and notes the run.
func (c *conv) facts(s *session) {
	p := c.b.Profile()
	if s.StartTime > 0 {
		sec, frac := math.Modf(s.StartTime)
		p.Start = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	p.Duration = time.Duration(s.Duration * 1e9)
	target := s.Target
	if target == "" {
		target = s.Program
	}
	if s.SampleCount > 0 || target != "" {
		c.b.Note(fmt.Sprintf("pyinstrument session: %d samples over %.3fs (CPU time %.3fs); %s", s.SampleCount, s.Duration, s.CPUTime, target))
	}
}

// records adds the samples of a session's frame records, in time order.
func (c *conv) records(rs []record) {
	var at int64
	for i, r := range rs {
		c.stack = c.stack[:0]
		for _, info := range r.stack {
			c.stack = append(c.stack, c.frame(info))
		}
		w := c.seconds(r.time, fmt.Sprintf("frame_records[%d]", i))
		c.b.Add(c.b.Stack(c.stack), []int64{w}, at, true, "", nil)
		at += w
	}
}

// tree adds the own time of n and of its descendants; depth is n's.
func (c *conv) tree(n *node, depth int) {
	if n.Identifier == "[self]" {
		c.add(depth, n.Time, n.Identifier)
		return
	}
	c.stack = append(c.stack[:depth], c.frame(n.Identifier))
	own := n.Time
	for _, ch := range n.Children {
		if ch != nil {
			own -= ch.Time
			c.tree(ch, depth+1)
		}
	}
	c.stack = c.stack[:depth+1]
	c.add(depth+1, own, n.Identifier)
}

// renderTree is tree for the JSON renderer's nodes.
func (c *conv) renderTree(n *renderNode, depth int) {
	id := n.Function + "\x00" + n.FilePath + "\x00" + strconv.FormatInt(n.LineNo, 10)
	c.stack = append(c.stack[:depth], c.frame(id))
	own := n.Time
	for _, ch := range n.Children {
		if ch != nil {
			own -= ch.Time
			c.renderTree(ch, depth+1)
		}
	}
	c.stack = c.stack[:depth+1]
	c.add(depth+1, own, n.Function)
}

// add adds a sample of the first depth frames of the stack weighing
// seconds (a negative remainder of rounding counts as zero).
func (c *conv) add(depth int, seconds float64, what string) {
	if seconds <= 0 || depth == 0 {
		return
	}
	w := c.seconds(seconds, what)
	c.b.Add(c.b.Stack(c.stack[:depth]), []int64{w}, 0, false, "", nil)
}

// seconds converts seconds to nanoseconds, recording an error for a time
// that is not a finite number.
func (c *conv) seconds(s float64, what string) int64 {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s > 1e9 {
		if c.err == nil {
			c.err = fmt.Errorf("%s: expected a time in seconds, found %v", what, s)
		}
		return 0
	}
	return int64(math.Round(s * 1e9))
}

// frame interns the frame of a frame info "function\x00file\x00line" (its
// attributes after "\x01" dropped).
func (c *conv) frame(info string) int32 {
	id, _, _ := strings.Cut(info, "\x01")
	if f, ok := c.frames[id]; ok {
		return f
	}
	parts := strings.Split(id, "\x00")
	fr := analysis.Frame{Name: parts[0]}
	if len(parts) >= 3 && parts[1] != "" {
		fr.File = parts[1]
		fr.Line, _ = strconv.ParseInt(parts[2], 10, 64)
		fr.Name = parts[0] + " (" + parts[1] + ":" + parts[2] + ")"
	}
	f := c.b.Frame(fr)
	c.frames[id] = f
	return f
}
