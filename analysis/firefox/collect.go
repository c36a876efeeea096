package firefox

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// thread is one thread of either format, converted: a stack table whose
// prefixes come before their stacks, its frames, and its samples.
type thread struct {
	name, pid string  // pid: the process's id or label, "" when unknown
	tid       string  // the thread's id, "" when unknown
	process   string  // the process's name, "" when unknown
	prefix    []int32 // per stack: its parent stack, -1 for a root
	frame     []int32 // per stack: index into frames
	frames    []analysis.Frame
	stack     []int32   // per sample: its stack, -1 for none
	time      []float64 // per sample: milliseconds since meta.startTime
	weight    []float64 // per sample, nil when each weighs 1
}

// collector turns threads into one profile's samples.
type collector struct {
	in      *analysis.Input
	b       *analysis.Builder
	scale   float64 // from a sample's weight to the value type's unit
	out     []jsonprof.Sample
	ids     []int32 // frame ids of the thread being added, by frame index; -1 unknown
	stacks  map[int32]int32
	buf     []int32
	skipped int
}

func newCollector(in *analysis.Input) *collector { return &collector{in: in} }

// weightTypes maps a processed profile's weightType to a value type and the
// scale of its weights.
var weightTypes = map[string]struct {
	vt    analysis.ValueType
	scale float64
}{
	"":           {analysis.ValueType{Type: "samples", Unit: "count"}, 1},
	"samples":    {analysis.ValueType{Type: "samples", Unit: "count"}, 1},
	"tracing-ms": {analysis.ValueType{Type: "wall", Unit: "nanoseconds"}, 1e6},
	"bytes":      {analysis.ValueType{Type: "space", Unit: "bytes"}, 1},
}

// start creates the builder for samples of the given weight type, read at
// path.
func (c *collector) start(weightType, path string) error {
	w, ok := weightTypes[weightType]
	if !ok {
		return &analysis.SyntaxError{File: c.in.Name, Offset: -1, Msg: fmt.Sprintf("%s: expected samples, tracing-ms or bytes, found %q", path, weightType)}
	}
	c.b, c.scale = c.in.NewBuilder(w.vt), w.scale
	return nil
}

// add adds every thread's samples, labelling threads with their process
// when there are several processes, and with their id (else their index)
// when several threads have one name, so that each thread is one.
func (c *collector) add(threads []thread) {
	pids := map[string]bool{}
	for i := range threads {
		pids[threads[i].pid] = true
	}
	labels := make([]string, len(threads))
	count := map[string]int{} // among the threads with samples
	for i := range threads {
		th := &threads[i]
		labels[i] = th.name
		if len(pids) > 1 && th.pid != "" {
			labels[i] += " (" + pidLabel(th.pid) + ")"
		}
		count[labels[i]] += min(len(th.stack), 1)
	}
	for i := range threads {
		if th := &threads[i]; count[labels[i]] > 1 && th.tid != "" {
			labels[i] += " tid " + th.tid
		}
	}
	clear(count)
	for i, l := range labels {
		count[l] += min(len(threads[i].stack), 1)
	}
	for i := range threads {
		th := &threads[i]
		if count[labels[i]] > 1 {
			labels[i] += " #" + strconv.Itoa(i)
		}
		if len(th.stack) > 0 {
			pid := th.pid
			if _, err := strconv.ParseUint(pid, 10, 64); err != nil {
				pid = ""
			}
			c.b.DescribeThread(analysis.Thread{Name: labels[i], ID: th.tid, Process: th.process, PID: pid})
		}
		c.thread(th, labels[i])
	}
}

// pidLabel says "pid 123" for a number, and leaves other labels ("process
// 2", "Unknown Process 1") as they are.
func pidLabel(pid string) string {
	if _, err := strconv.ParseUint(pid, 10, 64); err == nil {
		return "pid " + pid
	}
	return pid
}

// thread adds the samples of one thread.
func (c *collector) thread(th *thread, label string) {
	c.ids = slices.Repeat([]int32{-1}, len(th.frames))
	c.stacks = map[int32]int32{}
	for i, s := range th.stack {
		w := 1.0
		if th.weight != nil {
			w = th.weight[i]
		}
		if math.IsNaN(w) || math.IsInf(w, 0) || math.IsNaN(th.time[i]) || math.IsInf(th.time[i], 0) {
			c.skipped++
			continue
		}
		c.out = append(c.out, jsonprof.Sample{Stack: c.stack(th, s), Weight: int64(math.Round(w * c.scale)),
			Time: int64(math.Round(th.time[i] * 1e6)), Thread: label})
	}
}

// stack returns the builder's stack for stack s of th, root first.
func (c *collector) stack(th *thread, s int32) int32 {
	if id, ok := c.stacks[s]; ok {
		return id
	}
	c.buf = c.buf[:0]
	for i := s; i >= 0; i = th.prefix[i] {
		f := th.frame[i]
		if c.ids[f] < 0 {
			c.ids[f] = c.b.Frame(th.frames[f])
		}
		if c.buf = append(c.buf, c.ids[f]); !c.b.CheckDepth(len(c.buf)) {
			break
		}
	}
	slices.Reverse(c.buf)
	id := c.b.Stack(c.buf)
	c.stacks[s] = id
	return id
}

// finish adds the samples in time order and sets the profile's times.
func (c *collector) finish(startMs, intervalMs float64) (*analysis.Profile, error) {
	if len(c.out) == 0 {
		return nil, &analysis.SyntaxError{File: c.in.Name, Offset: -1, Msg: "expected samples in threads[].samples; the profile has none"}
	}
	jsonprof.AddWeighted(c.b, c.out, true)
	p := c.b.Profile()
	if startMs > 0 && startMs < 1e14 {
		ms := math.Floor(startMs)
		p.Start = time.UnixMilli(int64(ms)).Add(time.Duration((startMs - ms) * 1e6)).UTC()
	}
	first, last := c.out[0].Time, c.out[len(c.out)-1].Time
	if intervalMs > 0 && intervalMs < 1e6 {
		p.Period, p.PeriodType = int64(intervalMs*1e6), analysis.ValueType{Type: "wall", Unit: "nanoseconds"}
	}
	p.Duration = jsonprof.Duration(last - first + p.Period)
	if c.skipped > 0 {
		c.b.Warn(strconv.Itoa(c.skipped) + " samples with a time or weight that is not a number were left out")
	}
	return c.b.Finish(), nil
}

// checkStacks checks a stack table: frames in range, prefixes before their
// stacks (so that every walk to a root ends).
func checkStacks(path string, prefix, frame []int32, frames int) error {
	if len(prefix) != len(frame) {
		return fmt.Errorf("%s: expected as many prefixes as frames, found %d and %d", path, len(prefix), len(frame))
	}
	for i := range frame {
		if frame[i] < 0 || int(frame[i]) >= frames {
			return fmt.Errorf("%s[%d]: expected a frame index below %d, found %d", path, i, frames, frame[i])
		}
		if prefix[i] >= int32(i) || prefix[i] < -1 {
			return fmt.Errorf("%s[%d]: expected a prefix stack before it, found %d", path, i, prefix[i])
		}
	}
	return nil
}

// checkSamples checks that every sample's stack is in range.
func checkSamples(path string, stack []int32, stacks int) error {
	for i, s := range stack {
		if s < -1 || int(s) >= stacks {
			return fmt.Errorf("%s[%d]: expected a stack index below %d, found %d", path, i, stacks, s)
		}
	}
	return nil
}
