// Package cpuprofile is the V8 CPU profile, as .cpuprofile files and the
// ProfileChunk events of Chrome traces hold it, and its conversion into
// samples; the v8 and chrome formats share it.
//
// Frames are placed where the file puts them: "(root)" is not a frame, and
// V8's pseudo-frames "(idle)", "(program)" and "(garbage collector)",
// children of the root in the file, are roots of their own, as DevTools'
// bottom-up view shows them (speedscope puts garbage collection and
// program samples on top of the previous sample's stack, making stacks
// that are not in the file). The profile's notes give the share of each
// (Note). Negative time deltas are clamped so that time never runs
// backwards.
package cpuprofile

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// ValueTypes are the value types of V8 and Chrome CPU profiles.
var ValueTypes = []analysis.ValueType{{Type: "samples", Unit: "count"}, {Type: "wall", Unit: "nanoseconds"}}

// Profile is a V8 CPU profile, in the current shape (nodes, samples,
// timeDeltas) or the old one (a head tree and timestamps; see FromOld).
type Profile struct {
	Nodes      []Node    `json:"nodes"`
	StartTime  *float64  `json:"startTime"` // µs; nil when absent
	EndTime    *float64  `json:"endTime"`   // µs; nil when absent
	Samples    []int64   `json:"samples"`
	TimeDeltas []float64 `json:"timeDeltas"`

	Head       *OldNode  `json:"head"`       // old shape
	Timestamps []float64 `json:"timestamps"` // old shape

	coarse bool // the old shape's start and end times were whole seconds (FromOld)
}

// Node is one node of the flat shape.
type Node struct {
	ID        int64     `json:"id"`
	CallFrame CallFrame `json:"callFrame"`
	Children  []int64   `json:"children"`
	Parent    *int64    `json:"parent"` // in trace-event ProfileChunks
}

// CallFrame is a node's function and position.
type CallFrame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	LineNumber   *int64 `json:"lineNumber"`   // 0-based; absent for VM pseudo-frames
	ColumnNumber *int64 `json:"columnNumber"` // 0-based
}

// OldNode is one node of the old tree shape, and of heap profiles.
type OldNode struct {
	CallFrame
	ID       int64      `json:"id"`
	Children []*OldNode `json:"children"`

	HeapFrame *CallFrame `json:"callFrame"` // heap profiles
	SelfSize  float64    `json:"selfSize"`  // heap profiles
}

// FromOld converts the old tree shape to the flat one.
func (p *Profile) FromOld() {
	var walk func(n *OldNode)
	walk = func(n *OldNode) {
		if n == nil {
			return
		}
		node := Node{ID: n.ID, CallFrame: n.CallFrame}
		if node.CallFrame.ColumnNumber == nil {
			node.CallFrame.ColumnNumber = new(int64) // column 1, as speedscope reads it
		}
		for _, c := range n.Children {
			if c != nil {
				node.Children = append(node.Children, c.ID)
			}
		}
		p.Nodes = append(p.Nodes, node)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Head)
	// v8-profiler wrote startTime and endTime in whole seconds: too coarse
	// for a span of samples timed in microseconds, so the samples give it.
	var start float64
	whole := func(t *float64) bool { return t != nil && *t == math.Trunc(*t) }
	if whole(p.StartTime) && (p.EndTime == nil || whole(p.EndTime)) {
		p.StartTime, p.EndTime, p.coarse = nil, nil, true
	}
	if p.StartTime != nil {
		start = *p.StartTime * 1e6
		p.StartTime = &start
	}
	if p.EndTime != nil {
		end := *p.EndTime * 1e6
		p.EndTime = &end
	}
	p.TimeDeltas = make([]float64, len(p.Timestamps))
	for i, ts := range p.Timestamps {
		p.TimeDeltas[i] = ts - start
		if i > 0 {
			p.TimeDeltas[i] = ts - p.Timestamps[i-1]
		}
	}
	if len(p.TimeDeltas) > len(p.Samples) {
		p.TimeDeltas = p.TimeDeltas[:len(p.Samples)]
	}
}

// conv holds the per-profile state of a conversion.
type conv struct {
	b      *analysis.Builder
	p      *Profile
	index  map[int64]int32 // node id → index in p.Nodes
	parent []int32         // per node index, -1 for none
	frame  []int32         // per node index, frame id, -1 until made
	on     []int32         // per node index, 1 + position in the open stack, 0 if closed
	open   []int32         // the open stack: node indices, root first
	frames []int32         // frame ids of open
	add    []int32         // scratch: nodes to open, leaf first
}

// Convert appends the samples of p, converted into b's frames and stacks,
// to out; each weighs the time until the next sample (the last nothing).
// Times are relative to origin (nanoseconds on p's clock).
func (p *Profile) Convert(b *analysis.Builder, thread string, origin int64, out []jsonprof.Sample) ([]jsonprof.Sample, error) {
	if len(p.TimeDeltas) != len(p.Samples) {
		return nil, fmt.Errorf("expected one time delta per sample, found %d samples and %d timeDeltas", len(p.Samples), len(p.TimeDeltas))
	}
	c := &conv{b: b, p: p}
	if err := c.link(); err != nil {
		return nil, err
	}
	times := c.times()
	first := len(out)
	out = slices.Grow(out, len(p.Samples))
	stack := int32(-1)
	for i, id := range p.Samples {
		if n, ok := c.index[id]; ok && c.step(n) || stack < 0 {
			stack = b.Stack(c.frames)
		}
		out = append(out, jsonprof.Sample{Stack: stack, Time: jsonprof.Nanos(p.base()+times[i]) - origin, Thread: thread})
	}
	for i := first; i+1 < len(out); i++ {
		out[i].Weight = out[i+1].Time - out[i].Time
	}
	return out, nil
}

// link indexes the nodes and sets their parents from the child lists (or
// the parent fields), refusing duplicate ids and cycles.
func (c *conv) link() error {
	nodes := c.p.Nodes
	c.index = make(map[int64]int32, len(nodes))
	for i, n := range nodes {
		if _, dup := c.index[n.ID]; dup {
			return fmt.Errorf("nodes[%d]: node id %d appears twice", i, n.ID)
		}
		c.index[n.ID] = int32(i)
	}
	c.parent = make([]int32, len(nodes))
	c.frame = make([]int32, len(nodes))
	c.on = make([]int32, len(nodes))
	for i := range nodes {
		c.parent[i], c.frame[i] = -1, -1
	}
	for i, n := range nodes {
		if n.Parent != nil {
			if pi, ok := c.index[*n.Parent]; ok {
				c.parent[i] = pi
			}
		}
		for _, ch := range n.Children {
			if ci, ok := c.index[ch]; ok {
				c.parent[ci] = int32(i)
			}
		}
	}
	return c.acyclic()
}

// acyclic checks that following parents always ends, in linear time.
func (c *conv) acyclic() error {
	state := make([]uint8, len(c.parent)) // 0 new, 1 on the current path, 2 done
	for i := range c.parent {
		j := int32(i)
		for j >= 0 && state[j] == 0 {
			state[j] = 1
			j = c.parent[j]
		}
		if j >= 0 && state[j] == 1 {
			return fmt.Errorf("nodes[%d]: node id %d is its own ancestor", j, c.p.Nodes[j].ID)
		}
		for j := int32(i); j >= 0 && state[j] == 1; j = c.parent[j] {
			state[j] = 2
		}
	}
	return nil
}

// times returns each sample's time in microseconds since startTime: the
// running sum of timeDeltas, clamped as speedscope does so that a run of
// samples never starts before the previous run and no sample of a run lies
// outside it.
func (c *conv) times() []float64 {
	s, d := c.p.Samples, c.p.TimeDeltas
	t := make([]float64, len(s))
	elapsed, start := 0.0, 0.0
	for i := range s {
		elapsed += d[i]
		if i == 0 || s[i] != s[i-1] {
			start = max(elapsed, start) // a new run
			t[i] = start
		} else {
			t[i] = max(elapsed, t[i-1])
		}
	}
	// Within a run, times may not pass the next run's start.
	next := math.Inf(1)
	for i := len(s) - 1; i >= 0; i-- {
		if i+1 < len(s) && s[i+1] != s[i] {
			next = t[i+1]
		}
		if i+1 < len(s) && t[i] > next {
			t[i] = next
		}
	}
	return t
}

// step moves the open stack to sample node n and reports whether it changed.
func (c *conv) step(n int32) bool {
	lca := n
	for lca >= 0 && c.on[lca] == 0 {
		lca = c.next(lca)
	}
	changed := false
	for len(c.open) > 0 && c.open[len(c.open)-1] != lca {
		c.pop()
		changed = true
	}
	c.add = c.add[:0]
	for m := n; m >= 0 && m != lca && !c.ignored(m); m = c.next(m) {
		c.add = append(c.add, m)
	}
	for i := len(c.add) - 1; i >= 0; i-- {
		c.push(c.add[i])
		changed = true
	}
	return changed
}

// next is the node below m on a stack: its parent.
func (c *conv) next(m int32) int32 { return c.parent[m] }

func (c *conv) ignored(m int32) bool {
	f := &c.p.Nodes[m].CallFrame
	return f.FunctionName == "(root)" || f.URL == "native dummy.js"
}

func (c *conv) pop() {
	top := c.open[len(c.open)-1]
	c.on[top] = 0
	c.open = c.open[:len(c.open)-1]
	c.frames = c.frames[:len(c.frames)-1]
}

func (c *conv) push(m int32) {
	if c.frame[m] < 0 {
		c.frame[m] = c.b.Frame(Frame(&c.p.Nodes[m].CallFrame))
	}
	c.open = append(c.open, m)
	c.on[m] = int32(len(c.open))
	c.frames = append(c.frames, c.frame[m])
}

// Frame names a call frame "fn url:line:col" (1-based line and column),
// "fn :line:col" when the script has no URL, or just "fn" for VM
// pseudo-frames; an unnamed function is "(anonymous)". Spaces in a URL are
// written %20 in the name (the frame's File keeps the URL as given).
func Frame(f *CallFrame) analysis.Frame {
	fn := f.FunctionName
	if fn == "" {
		fn = "(anonymous)"
	}
	line, col := int64(0), int64(0)
	if f.LineNumber != nil {
		line = *f.LineNumber + 1
	}
	if f.ColumnNumber != nil {
		col = *f.ColumnNumber + 1
	}
	if line <= 0 && f.URL == "" {
		return analysis.Frame{Name: fn}
	}
	url := strings.ReplaceAll(f.URL, " ", "%20") // the name's URL ends at the last space
	return analysis.Frame{Name: fn + " " + url + ":" + strconv.FormatInt(line, 10) + ":" + strconv.FormatInt(col, 10), File: f.URL, Line: line}
}
