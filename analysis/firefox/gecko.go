package firefox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/jsonprof"
)

// geckoProfile is a Gecko profile or one of its subprocesses' profiles.
type geckoProfile struct {
	Meta struct {
		StartTime float64 `json:"startTime"`
	} `json:"meta"`
	Threads   []json.RawMessage `json:"threads"`
	Processes []json.RawMessage `json:"processes"`
}

// geckoTable is a table of rows whose columns the schema names.
type geckoTable struct {
	Schema map[string]int `json:"schema"`
	Data   [][]any        `json:"data"`
}

type geckoThread struct {
	Name        string     `json:"name"`
	Pid         any        `json:"pid"`
	Samples     geckoTable `json:"samples"`
	StackTable  geckoTable `json:"stackTable"`
	FrameTable  geckoTable `json:"frameTable"`
	StringTable []string   `json:"stringTable"`
}

// readGecko reads a Gecko profile: its threads, then its subprocesses',
// whose times count from their own start.
func readGecko(c *collector, data []byte) error {
	if err := c.start("", ""); err != nil {
		return err
	}
	g := gecko{name: c.in.Name}
	var root geckoProfile
	if err := g.profile(data, "", &root, nil, 0); err != nil {
		return err
	}
	c.add(g.threads)
	return nil
}

type gecko struct {
	name      string
	threads   []thread
	processes int
}

// profile reads one profile at path (its JSON in data, or a JSON string
// holding it, as old subprocesses were written); root is the top profile,
// whose start times count from.
func (g *gecko) profile(data []byte, path string, p, root *geckoProfile, depth int) error {
	if len(data) > 0 && data[0] == '"' && depth > 0 {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return g.err(path, jsonprof.Detail(err))
		}
		data = []byte(s)
	}
	if err := json.Unmarshal(data, p); err != nil {
		return g.err(path, "expected a Gecko profile: "+jsonprof.Detail(err))
	}
	if root == nil {
		root = p
	}
	g.processes++
	process := g.processes
	offset := p.Meta.StartTime - root.Meta.StartTime
	for i, raw := range p.Threads {
		at := fmt.Sprintf("%sthreads[%d]", path, i)
		if len(raw) > 0 && raw[0] == '"' && depth < 4 { // a subprocess written as a string
			if err := g.profile(raw, at+".", &geckoProfile{}, root, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := g.thread(raw, at, offset, process); err != nil {
			return err
		}
	}
	for i, raw := range p.Processes {
		if depth >= 4 {
			return g.err(path+"processes", "expected at most 4 levels of subprocesses")
		}
		if err := g.profile(raw, fmt.Sprintf("%sprocesses[%d].", path, i), &geckoProfile{}, root, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (g *gecko) err(path, msg string) error {
	if path == "" {
		path = "the top level"
	}
	return &analysis.SyntaxError{File: g.name, Offset: -1, Msg: path + ": " + msg}
}

// thread converts one Gecko thread, its times shifted by offset ms.
func (g *gecko) thread(raw json.RawMessage, path string, offset float64, process int) error {
	var gt geckoThread
	if err := json.Unmarshal(raw, &gt); err != nil {
		return g.err(path, "expected a thread: "+jsonprof.Detail(err))
	}
	th := thread{name: cmp.Or(gt.Name, "?"), pid: cmp.Or(pidString(gt.Pid), "process "+strconv.Itoa(process))}
	var err error
	if th.frames, err = geckoFrames(&gt); err != nil {
		return g.err(path+".frameTable", err.Error())
	}
	if th.prefix, th.frame, err = geckoStacks(&gt.StackTable); err != nil {
		return g.err(path+".stackTable", err.Error())
	}
	if err := checkStacks("data", th.prefix, th.frame, len(th.frames)); err != nil {
		return g.err(path+".stackTable", err.Error())
	}
	if th.stack, th.time, err = geckoSamples(&gt.Samples, offset); err != nil {
		return g.err(path+".samples", err.Error())
	}
	if err := checkSamples("data", th.stack, len(th.frame)); err != nil {
		return g.err(path+".samples", err.Error())
	}
	g.threads = append(g.threads, th)
	return nil
}

// column returns the index of a schema's column.
func column(t *geckoTable, name string) (int, error) {
	i, ok := t.Schema[name]
	if !ok || i < 0 {
		return 0, fmt.Errorf("expected a %q column in the schema", name)
	}
	return i, nil
}

// cell returns row[i] as a number; null is ok false.
func cell(row []any, i int) (float64, bool, error) {
	if i >= len(row) || row[i] == nil {
		return 0, false, nil
	}
	v, isNum := row[i].(float64)
	if !isNum {
		return 0, false, fmt.Errorf("expected a number in column %d, found %T", i, row[i])
	}
	return v, true, nil
}

// index returns row[i] as an index below n, -1 for null.
func index(row []any, i, n int) (int32, error) {
	v, ok, err := cell(row, i)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return -1, nil
	case v < 0 || v >= float64(n) || v != float64(int64(v)):
		return 0, fmt.Errorf("expected an index below %d in column %d, found %v", n, i, v)
	}
	return int32(v), nil
}

func geckoFrames(gt *geckoThread) ([]analysis.Frame, error) {
	loc, err := column(&gt.FrameTable, "location")
	if err != nil {
		return nil, err
	}
	out := make([]analysis.Frame, len(gt.FrameTable.Data))
	for i, row := range gt.FrameTable.Data {
		s, err := index(row, loc, len(gt.StringTable))
		if err != nil || s < 0 {
			return nil, fmt.Errorf("data[%d]: expected a location in the string table: %v", i, err)
		}
		out[i] = geckoFrame(gt.StringTable[s])
	}
	return out, nil
}

func geckoStacks(t *geckoTable) (prefix, frame []int32, err error) {
	pc, err := column(t, "prefix")
	if err != nil {
		return nil, nil, err
	}
	fc, err := column(t, "frame")
	if err != nil {
		return nil, nil, err
	}
	prefix, frame = make([]int32, len(t.Data)), make([]int32, len(t.Data))
	for i, row := range t.Data {
		if prefix[i], err = index(row, pc, i); err != nil {
			return nil, nil, fmt.Errorf("data[%d]: %w", i, err)
		}
		if frame[i], err = index(row, fc, 1<<31-1); err != nil || frame[i] < 0 {
			return nil, nil, fmt.Errorf("data[%d]: expected a frame: %v", i, err)
		}
	}
	return prefix, frame, nil
}

func geckoSamples(t *geckoTable, offset float64) (stack []int32, times []float64, err error) {
	sc, err := column(t, "stack")
	if err != nil {
		return nil, nil, err
	}
	tc, err := column(t, "time")
	if err != nil {
		return nil, nil, err
	}
	stack, times = make([]int32, len(t.Data)), make([]float64, len(t.Data))
	for i, row := range t.Data {
		if stack[i], err = index(row, sc, 1<<31-1); err != nil {
			return nil, nil, fmt.Errorf("data[%d]: %w", i, err)
		}
		ms, ok, err := cell(row, tc)
		if err != nil || !ok {
			return nil, nil, fmt.Errorf("data[%d]: expected a time: %v", i, err)
		}
		times[i] = ms + offset
	}
	return stack, times, nil
}

// pidString renders a pid, a number or a string in the formats.
func pidString(pid any) string {
	switch v := pid.(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(int64(v))
	}
	return ""
}
