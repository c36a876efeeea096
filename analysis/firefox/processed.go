package firefox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// procProfile is a processed profile: tables per thread, or shared by the
// threads from version 60 on (strings from version 56 on).
type procProfile struct {
	Shared  procTables   `json:"shared"`
	Threads []procThread `json:"threads"`
	Libs    []procLib    `json:"libs"` // from version 44; per thread before
}

// procLib is a library (a shared object, the executable, the kernel) that
// native frames are in.
type procLib struct {
	Name string `json:"name"`
}

// procResources are the resources functions are in: libraries, among
// others.
type procResources struct {
	Lib []*int64 `json:"lib"`
}

// procTables are the tables a thread reads its stacks through.
type procTables struct {
	StringArray []string    `json:"stringArray"`
	StackTable  *procStacks `json:"stackTable"`
	FrameTable  *procFrames `json:"frameTable"`
	FuncTable   *procFuncs  `json:"funcTable"`
	Sources     *struct {
		Filename []*int64 `json:"filename"`
	} `json:"sources"`
	ResourceTable *procResources `json:"resourceTable"`
	Libs          []procLib      `json:"libs"`
}

type procThread struct {
	procTables
	Name        string `json:"name"`
	Pid         any    `json:"pid"`
	Tid         any    `json:"tid"`
	ProcessType string `json:"processType"`
	ProcessName string `json:"processName"`
	Samples     struct {
		Stack      []*int64  `json:"stack"`
		Time       []float64 `json:"time"`
		TimeDeltas []float64 `json:"timeDeltas"`
		Weight     []float64 `json:"weight"`
		WeightType string    `json:"weightType"`
	} `json:"samples"`
}

type procStacks struct {
	Frame        []int64  `json:"frame"`
	Prefix       []*int64 `json:"prefix"`       // before version 66
	PrefixOffset []int64  `json:"prefixOffset"` // from version 66: 0 for a root, else the distance back to the parent
}

type procFrames struct {
	Func []int64 `json:"func"`
}

type procFuncs struct {
	Name         []int64  `json:"name"`
	IsJS         []bool   `json:"isJS"`
	FileName     []*int64 `json:"fileName"` // before version 58
	Source       []*int64 `json:"source"`   // from version 58, into shared.sources
	LineNumber   []*int64 `json:"lineNumber"`
	ColumnNumber []*int64 `json:"columnNumber"`
	Resource     []*int64 `json:"resource"`
}

// readProcessed reads the threads of a processed profile.
func readProcessed(c *collector, data []byte) error {
	var p procProfile
	if err := json.Unmarshal(data, &p); err != nil {
		return jsonprof.Error(c.in.Name, data, "a processed Firefox profile", err)
	}
	weightType, at := "", ""
	for i, th := range p.Threads {
		if len(th.Samples.Stack) > 0 {
			weightType, at = th.Samples.WeightType, fmt.Sprintf("threads[%d].samples.weightType", i)
			break
		}
	}
	if err := c.start(weightType, at); err != nil {
		return err
	}
	var threads []thread
	sharedFrames := map[*procFrames][]analysis.Frame{}
	for i := range p.Threads {
		pt := &p.Threads[i]
		if len(pt.Samples.Stack) > 0 && pt.Samples.WeightType != weightType {
			c.b.Warn(fmt.Sprintf("threads[%d] (%s) weighs its samples in %q, not %q: left out", i, pt.Name, pt.Samples.WeightType, weightType))
			continue
		}
		if pt.Libs == nil {
			pt.Libs = p.Libs
		}
		th, err := procThreadOf(pt, &p.Shared, sharedFrames)
		if err != nil {
			return &analysis.SyntaxError{File: c.in.Name, Offset: -1, Msg: fmt.Sprintf("threads[%d].%v", i, err)}
		}
		threads = append(threads, th)
	}
	c.add(threads)
	return nil
}

// procThreadOf converts a processed thread, reading the shared tables where
// the thread has none.
func procThreadOf(pt *procThread, shared *procTables, frames map[*procFrames][]analysis.Frame) (thread, error) {
	t := pt.procTables
	if t.StackTable == nil {
		t.StackTable, t.FrameTable, t.FuncTable, t.Sources = shared.StackTable, shared.FrameTable, shared.FuncTable, shared.Sources
	}
	if t.StringArray == nil {
		t.StringArray = shared.StringArray
	}
	if t.ResourceTable == nil {
		t.ResourceTable = shared.ResourceTable
	}
	if t.StackTable == nil || t.FrameTable == nil || t.FuncTable == nil {
		return thread{}, fmt.Errorf("stackTable: expected the stack, frame and func tables (in the thread or in shared)")
	}
	th := thread{name: cmp.Or(pt.Name, "?"), pid: cmp.Or(pidString(pt.Pid), pt.ProcessType), tid: pidString(pt.Tid), process: pt.ProcessName}
	var err error
	if th.frames = frames[t.FrameTable]; th.frames == nil { // shared tables are named once
		if th.frames, err = procFramesOf(&t); err != nil {
			return thread{}, err
		}
		frames[t.FrameTable] = th.frames
	}
	if th.prefix, th.frame, err = procStacksOf(t.StackTable); err != nil {
		return thread{}, err
	}
	if err := checkStacks("stackTable", th.prefix, th.frame, len(th.frames)); err != nil {
		return thread{}, err
	}
	return th, procSamplesOf(pt, &th)
}

func procStacksOf(s *procStacks) (prefix, frame []int32, err error) {
	n := len(s.Frame)
	prefix, frame = make([]int32, n), make([]int32, n)
	for i, f := range s.Frame {
		frame[i], prefix[i] = int32(min(max(f, -1), 1<<31-1)), -1
		switch {
		case s.PrefixOffset != nil && i < len(s.PrefixOffset):
			if off := s.PrefixOffset[i]; off != 0 {
				prefix[i] = int32(max(min(int64(i)-off, 1<<31-1), -2))
			}
		case i < len(s.Prefix):
			if p := s.Prefix[i]; p != nil {
				prefix[i] = int32(max(min(*p, 1<<31-1), -2))
			}
		default:
			return nil, nil, fmt.Errorf("stackTable: expected a prefix (or prefixOffset) for each of the %d stacks, found %d", n, max(len(s.Prefix), len(s.PrefixOffset)))
		}
	}
	return prefix, frame, nil
}

// procFramesOf names every frame by its function.
func procFramesOf(t *procTables) ([]analysis.Frame, error) {
	fn := t.FuncTable
	out := make([]analysis.Frame, len(t.FrameTable.Func))
	for i, f := range t.FrameTable.Func {
		if f < 0 || f >= int64(len(fn.Name)) {
			return nil, fmt.Errorf("frameTable.func[%d]: expected a function index below %d, found %d", i, len(fn.Name), f)
		}
		name, err := str(t.StringArray, fn.Name[f])
		if err != nil {
			return nil, fmt.Errorf("funcTable.name[%d]: %w", f, err)
		}
		file, err := funcFile(t, int(f))
		if err != nil {
			return nil, fmt.Errorf("funcTable[%d]: %w", f, err)
		}
		switch {
		case file == "" && strings.HasPrefix(name, "0x"):
			out[i] = nativeFrame(t, name, f)
			continue
		case file == "":
			out[i] = geckoFrame(name) // before version 4, a JS name holds its location
			continue
		case f >= int64(len(fn.IsJS)) || !fn.IsJS[f]:
			out[i] = nativeFrame(t, name, f)
			continue
		}
		out[i] = jsFrame(name, file, opt(fn.LineNumber, f), opt(fn.ColumnNumber, f))
	}
	return out, nil
}

// nativeFrame is a native function's frame: its name and its library; an
// unsymbolicated one (named by its address, "0x19974d") is named
// "lib+0x19974d" with its library's name, so that one address in two
// libraries is two frames.
func nativeFrame(t *procTables, name string, f int64) analysis.Frame {
	lib := libOf(t, f)
	if lib != "" && strings.HasPrefix(name, "0x") {
		name = lib + "+" + name
	}
	return analysis.Frame{Name: name, Lib: lib}
}

// libOf returns the name of the library of function f, "" when the
// profile does not say.
func libOf(t *procTables, f int64) string {
	if t.ResourceTable == nil || f >= int64(len(t.FuncTable.Resource)) || t.FuncTable.Resource[f] == nil {
		return ""
	}
	r := opt(t.FuncTable.Resource, f)
	if r < 0 || r >= int64(len(t.ResourceTable.Lib)) || t.ResourceTable.Lib[r] == nil {
		return ""
	}
	if lib := *t.ResourceTable.Lib[r]; lib >= 0 && lib < int64(len(t.Libs)) {
		return t.Libs[lib].Name
	}
	return ""
}

// funcFile returns a function's file name, "" when it has none.
func funcFile(t *procTables, f int) (string, error) {
	fn := t.FuncTable
	if f < len(fn.FileName) && fn.FileName[f] != nil {
		return str(t.StringArray, *fn.FileName[f])
	}
	if f >= len(fn.Source) || fn.Source[f] == nil || t.Sources == nil {
		return "", nil
	}
	src := *fn.Source[f]
	if src < 0 || src >= int64(len(t.Sources.Filename)) || t.Sources.Filename[src] == nil {
		return "", fmt.Errorf("source: expected an index into shared.sources, found %d", src)
	}
	return str(t.StringArray, *t.Sources.Filename[src])
}

func str(strs []string, i int64) (string, error) {
	if i < 0 || i >= int64(len(strs)) {
		return "", fmt.Errorf("expected a string index below %d, found %d", len(strs), i)
	}
	return strs[i], nil
}

// opt returns column[i], 0 when absent or null.
func opt(column []*int64, i int64) int64 {
	if i < int64(len(column)) && column[i] != nil {
		return *column[i]
	}
	return 0
}

// procSamplesOf converts the samples: stacks, times (absolute, or deltas
// from version 50 on) and weights.
func procSamplesOf(pt *procThread, th *thread) error {
	s := &pt.Samples
	n := len(s.Stack)
	th.stack = make([]int32, n)
	for i, st := range s.Stack {
		th.stack[i] = -1
		if st != nil {
			th.stack[i] = int32(max(min(*st, 1<<31-1), -2))
		}
	}
	if err := checkSamples("samples.stack", th.stack, len(th.frame)); err != nil {
		return err
	}
	switch {
	case len(s.Time) == n:
		th.time = s.Time
	case len(s.TimeDeltas) == n:
		th.time = make([]float64, n)
		var t float64
		for i, d := range s.TimeDeltas {
			t += d
			th.time[i] = t
		}
	default:
		return fmt.Errorf("samples: expected a time or timeDeltas for each of the %d samples, found %d and %d", n, len(s.Time), len(s.TimeDeltas))
	}
	if s.Weight != nil {
		if len(s.Weight) != n {
			return fmt.Errorf("samples.weight: expected a weight for each of the %d samples, found %d", n, len(s.Weight))
		}
		th.weight = s.Weight
	}
	return nil
}
