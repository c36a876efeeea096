// Package perf reads `perf script` text. The frames, weights and root frame follow FlameGraph's
// stackcollapse-perf.pl (commit 41fee1f) with its default options:
//   - the process name (comm, spaces as '_') is the root frame;
//   - "+0x…" offsets are stripped, "a->b" inline chains become frames,
//     "[unknown]" becomes "[dso base name]" or "[unknown]", ';' becomes ':';
//   - only samples of the first event type are kept (mixing cycles with
//     instructions misleads); the others are counted in a warning;
//   - a sample weighs its period when the line has one, else 1.
//
// Where we differ: a name is the symbol perf wrote, whole (the script cuts
// it at its first '(', drops quotes and the "L" of Java descriptors; see
// names.go), cleaned as every loader's names are (analysis.CleanName); so
// folded.Write of a loaded file equals the script's output with its names
// tidied the same way (the tests check the 78 expected outputs of
// FlameGraph's suite). A symbol that begins with '(' is a function
// ("(anonymous namespace)::f", "(lambda)"), kept (the script drops it). The last sample counts even when the file does not end
// with a blank line (the script drops it); samples keep their time (ns since
// the earliest sample), their thread "comm-pid/tid" (id tid, process comm
// with id pid), and their order
// (sorted by time when the file interleaves CPUs out of order);
// and the value types are samples/count plus the event's weight.
package perf

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "perf", Priority: 40, Sniff: sniff, Parse: parse})
}

var (
	perfEvent  = regexp.MustCompile(`^(\S.+?)\s+(\d+)/*(\d+)*\s+`)
	perfPeriod = regexp.MustCompile(`:\s*(\d+)*\s+(\S+):\s*$`)
	perfTime   = regexp.MustCompile(`\s(\d+\.\d+):\s`)
	perfName   = regexp.MustCompile(`\s(\S+):\s*$`) // the event, for naming only
	perfFrame  = regexp.MustCompile(`^\s*(\w+)\s*(.+) \((.*)\)`)
	perfFrame0 = regexp.MustCompile(`^\s*(\w+)\s*(.+) \((\S*)\)`) // before 2023
	perfJIT    = regexp.MustCompile(`/tmp/perf-\d+\.map`)
)

func sniff(head []byte) bool {
	if !text.Is(head) {
		return false
	}
	if bytes.HasPrefix(head, []byte("# ========\n# captured on")) {
		return true // perf script --header, which can be longer than head
	}
	r := text.NewReader(nil, head)
	for r.Next() {
		line := string(r.Line)
		if line == "" || line[0] == '#' {
			continue
		}
		if !perfEvent.MatchString(line) || !strings.Contains(line, ":") {
			return false
		}
		next, ended, ok := r.Peek()
		cut := ok && len(head) == 4096 && !ended
		return !ok || cut || len(next) == 0 || perfFrame.Match(next)
	}
	return false
}

// perfOptions are stackcollapse-perf.pl's options, for the tests that check
// every expected output of FlameGraph's test suite; the loader's defaults
// are the zero value.
type perfOptions struct {
	pid, tid, kernel, jit, addrs bool
	flamegraph                   bool // tidy names as the script does (cut at '(', no quotes, "L" dropped)
	dropUnterminated             bool // drop a last sample not followed by a blank line
	before2023                   bool // the script as of a14f791: "java" only, dso without spaces
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	return parseWith(in, perfOptions{})
}

// perfParser holds the sample being read.
type perfParser struct {
	in        *analysis.Input
	o         perfOptions
	b         *analysis.Builder
	event     string // the kept event type
	name      string // the event named on a line without a period, for the value type
	dropped   map[string]int
	pname     string // root frame of the current sample; "" outside a kept sample
	thread    analysis.Thread
	period    int64
	time      int64
	hasTime   bool
	stack     []int32 // leaf first while reading
	t0        int64
	started   bool
	allTimed  bool // every kept sample so far has a time
	sawPeriod bool
	// firstPeriod is the first sample's period; mixedPeriod says whether
	// others differ (perf record -c N gives one period, -F N varying ones).
	firstPeriod int64
	mixedPeriod bool
	cache       [2]map[string][]int32 // stack line → frames, leaf first; [1] in Java processes
}

func parseWith(in *analysis.Input, o perfOptions) (*analysis.Profile, error) {
	name := in.Name
	pp := &perfParser{in: in, o: o, dropped: map[string]int{}, cache: [2]map[string][]int32{{}, {}}, allTimed: true}
	r := text.NewReader(in.Context(), in.Data)
	for r.Next() {
		line := string(r.Line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			pp.flush()
			continue
		}
		if line[0] != ' ' && line[0] != '\t' { // event lines start with the comm
			if m := perfEvent.FindStringSubmatch(line); m != nil {
				pp.flush()
				pp.start(line, m)
				continue
			}
		}
		if pp.frameLine(line) {
			continue
		}
		return nil, analysis.LineError(name, r.N, "expected a perf script event line (\"comm pid [cpu] time: period event:\"), a stack line (\"addr symbol (dso)\") or a blank line, got %q", text.Clip(line))
	}
	if !o.dropUnterminated {
		pp.flush()
	}
	if pp.b == nil {
		return nil, analysis.LineError(name, r.N+1, "expected at least one perf script sample, found none")
	}
	pp.warnDropped()
	p := pp.b.Finish()
	if !p.Timed && pp.allTimed && len(p.Samples) > 1 {
		timeOrder(p)
	}
	if p.Timed && len(p.Samples) > 0 {
		p.Duration = time.Duration(p.Samples[len(p.Samples)-1].Time)
	}
	return p, nil
}

// timeOrder sorts samples that all have times but come out of order (perf
// writes per-CPU buffers one after another), and starts the times at 0.
func timeOrder(p *analysis.Profile) {
	sort.SliceStable(p.Samples, func(i, j int) bool { return p.Samples[i].Time < p.Samples[j].Time })
	t0 := p.Samples[0].Time
	for i := range p.Samples {
		p.Samples[i].Time -= t0
	}
	p.Timed = true
	p.Warnings = append(p.Warnings, "samples were not in time order in the file; sorted by time")
}

func (pp *perfParser) frameMatch(line string) []string {
	if pp.o.before2023 {
		return perfFrame0.FindStringSubmatch(line)
	}
	return perfFrame.FindStringSubmatch(line)
}

// start reads an event line; m holds comm, pid and tid.
func (pp *perfParser) start(line string, m []string) {
	comm, pid, tid := m[1], m[2], m[3]
	if tid == "" {
		pid, tid = "?", pid
	}
	period := int64(1)
	if e := perfPeriod.FindStringSubmatch(line); e != nil {
		if pp.event == "" {
			pp.event = e[2]
		} else if e[2] != pp.event {
			pp.dropped[e[2]]++
			pp.pname = ""
			return
		}
		if v, err := strconv.ParseInt(e[1], 10, 64); err == nil && v != 0 {
			period = v
		}
	}
	if pp.event == "" && pp.name == "" {
		if e := perfName.FindStringSubmatch(line); e != nil {
			pp.name = e[1]
		}
	}
	pp.period = period
	pp.thread = analysis.Thread{Name: comm + "-" + pid + "/" + tid, ID: tid, Process: comm, PID: strings.Trim(pid, "?")}
	switch {
	case pp.o.tid:
		pp.pname = comm + "-" + pid + "/" + tid
	case pp.o.pid:
		pp.pname = comm + "-" + pid
	default:
		pp.pname = comm
	}
	pp.pname = strings.ReplaceAll(pp.pname, " ", "_")
	pp.time, pp.hasTime = pp.timeOf(line)
	pp.stack = pp.stack[:0]
}

// timeOf returns the event's time in nanoseconds since the first event.
func (pp *perfParser) timeOf(line string) (int64, bool) {
	t := perfTime.FindStringSubmatch(line)
	if t == nil {
		return 0, false
	}
	ns, ok := secondsToNS(t[1])
	if !ok {
		return 0, false
	}
	if !pp.started {
		pp.t0, pp.started = ns, true
	}
	return ns - pp.t0, true
}

// secondsToNS converts "123.456789" seconds to nanoseconds exactly.
func secondsToNS(s string) (int64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || sec > 9e9 || len(frac) > 9 {
		return 0, false
	}
	frac += strings.Repeat("0", 9-len(frac))
	ns, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, false
	}
	return sec*1e9 + ns, true
}

// frameLine reads a stack line and reports whether it is one. Stack lines
// repeat across samples, so their frames are cached by line text (and by
// whether the process is a Java one, which changes the names).
func (pp *perfParser) frameLine(line string) bool {
	java := 0
	if pp.isJava() {
		java = 1
	}
	if ids, ok := pp.cache[java][line]; ok {
		if pp.pname != "" {
			pp.stack = append(pp.stack, ids...)
		}
		return true
	}
	m := pp.frameMatch(line)
	if m == nil {
		return false
	}
	if pp.pname == "" {
		return true // a sample that is not kept
	}
	ids := pp.frameIDs(m)
	pp.cache[java][line] = ids
	pp.stack = append(pp.stack, ids...)
	return true
}

// frameIDs interns the frames of a stack line, leaf first; m holds the
// address, the symbol and the dso.
func (pp *perfParser) frameIDs(m []string) []int32 {
	pc, raw, mod := m[1], stripOffset(m[2]), m[3]
	if pp.o.flamegraph && strings.HasPrefix(raw, "(") {
		return nil // the script takes these for process names
	}
	parts := strings.Split(raw, "->")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	ids := make([]int32, 0, len(parts))
	for i := len(parts) - 1; i >= 0; i-- { // kept leaf first; parts read root first
		name := pp.tidy(parts[i], pc, mod, i > 0)
		ids = append(ids, pp.builder().Frame(analysis.Frame{Name: name, File: mod}))
	}
	return ids
}

// isJava reports whether Java names are tidied in the current process.
func (pp *perfParser) isJava() bool {
	if pp.o.before2023 {
		return pp.pname == "java"
	}
	return strings.HasPrefix(pp.pname, "java")
}

// builder creates the profile on the first kept sample.
func (pp *perfParser) builder() *analysis.Builder {
	if pp.b == nil {
		event := pp.event
		if event == "" {
			event = pp.name
		}
		if event == "" || event == "samples" {
			event = "events"
		}
		pp.b = pp.in.NewBuilder(analysis.ValueType{Type: "samples", Unit: "count"}, analysis.ValueType{Type: event, Unit: "count"})
		pp.b.Profile().DefaultValue = 1
	}
	return pp.b
}

// flush adds the sample read so far, if it is kept.
func (pp *perfParser) flush() {
	if pp.pname == "" {
		return
	}
	b := pp.builder()
	root := b.Frame(analysis.Frame{Name: pp.pname})
	pp.stack = append(pp.stack, root)
	slices.Reverse(pp.stack)
	if pp.period != 1 {
		pp.sawPeriod = true
	}
	if len(b.Profile().Samples) == 0 {
		pp.firstPeriod = pp.period
	} else if pp.period != pp.firstPeriod {
		pp.mixedPeriod = true
	}
	b.DescribeThread(pp.thread)
	b.Add(b.Stack(pp.stack), []int64{1, pp.period}, pp.time, pp.hasTime, pp.thread.Name, nil)
	pp.allTimed = pp.allTimed && pp.hasTime
	pp.pname, pp.stack = "", pp.stack[:0]
}

func (pp *perfParser) warnDropped() {
	var kinds []string
	for e := range pp.dropped {
		kinds = append(kinds, e)
	}
	sort.Strings(kinds)
	for _, e := range kinds {
		pp.b.Warn(fmt.Sprintf("kept only %s samples, as stackcollapse-perf does; dropped %d %s samples", pp.event, pp.dropped[e], e))
	}
	p := pp.b.Profile()
	vt := &p.ValueTypes[1]
	if pp.sawPeriod && perfClock(vt.Type) {
		vt.Unit = "nanoseconds"
	}
	if pp.sawPeriod && !pp.mixedPeriod { // a fixed sampling period
		p.Period, p.PeriodType = pp.firstPeriod, *vt
	}
}

// perfClock reports whether event counts time (its period is in ns).
func perfClock(event string) bool {
	e, _, _ := strings.Cut(event, ":")
	return e == "cpu-clock" || e == "task-clock"
}
