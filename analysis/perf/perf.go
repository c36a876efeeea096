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
//
// Any field list perf script -F writes is read: event lines with or without
// the comm and tid, cpu, time, period and event (a sample without a call
// chain has its frame on the event line, which perf pads with spaces), and
// stack lines "addr symbol+off (dso)" with any of their parts left out, or
// followed by source lines (+srcline), which are skipped. A file cut off in
// the middle of its last line (copied while perf was writing) loads its
// complete samples, with a warning naming the line.
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

	perfTimeField = regexp.MustCompile(`^\d+\.\d+:$`)
	perfPidTid    = regexp.MustCompile(`^\d+/\d+$`)
	// perfSrcLine is a source line perf script -F +srcline writes below a
	// frame: "file.c:12", ":0", "??:?", "[kernel.kallsyms][ffffffff8100]".
	perfSrcLine = regexp.MustCompile(`^\s+(\S*:(\d+|\?+)|\[[^\]]*\]\[[0-9a-f]+\])$`)
)

func sniff(head []byte) bool {
	if !text.Is(head) {
		return false
	}
	if bytes.HasPrefix(head, []byte("# ========\n# captured on")) {
		return true // perf script --header, which can be longer than head
	}
	r := text.NewReader(nil, head)
	pp := &perfParser{}
	for r.Next() {
		line := string(r.Line)
		if line != "" && line[0] == '#' {
			continue
		}
		if line != "" && !isEventLine(line) { // an event line, then a stack line, a blank line or an event line
			return false
		}
		next, ended, ok := r.Peek()
		cut := ok && len(head) == 4096 && !ended
		if line == "" { // perf script -F without comm and tid: a blank line, then the stack
			return ok && pp.frameMatch(string(next)) != nil
		}
		return !ok || cut || len(next) == 0 || pp.frameMatch(string(next)) != nil || isEventLine(string(next))
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
	open      bool    // a sample is being read (kept or not)
	startLine int     // the line its event line was on
	t0        int64
	started   bool
	allTimed  bool // every kept sample so far has a time
	sawPeriod bool
	// firstPeriod is the first sample's period; mixedPeriod says whether
	// others differ (perf record -c N gives one period, -F N varying ones).
	firstPeriod int64
	mixedPeriod bool
	cache       [2]map[string][]int32 // stack line → frames, leaf first; [1] in Java processes
	anonymous   bool                  // the sample has no event line: no comm, no thread
	cutAt       string                // the warning of a file cut off mid-line
}

func parseWith(in *analysis.Input, o perfOptions) (*analysis.Profile, error) {
	name := in.Name
	pp := &perfParser{in: in, o: o, dropped: map[string]int{}, cache: [2]map[string][]int32{{}, {}}, allTimed: true}
	r := text.NewReader(in.Context(), in.Data)
	for r.Next() {
		line := string(r.Line)
		if !r.Ended && !o.flamegraph && looksCut(line) {
			pp.cut(r.N)
			break
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			pp.flush()
			continue
		}
		if pp.eventLine(line, r.N) || pp.frameLine(line) || pp.srcLine(line) {
			continue
		}
		if !r.Ended && !o.flamegraph { // the last line, cut off
			pp.cut(r.N)
			break
		}
		return nil, analysis.LineError(name, r.N, "expected a perf script event line (\"comm pid [cpu] time: period event:\"), a stack line (\"addr symbol (dso)\") or a blank line, got %q", text.Clip(line))
	}
	if !o.dropUnterminated {
		pp.flush()
	}
	if pp.cutAt != "" && (pp.b == nil || len(pp.b.Profile().Samples) == 0) {
		return nil, analysis.LineError(name, r.N, "expected at least one complete perf script sample; the file ends in the middle of this line")
	}
	if pp.b == nil {
		return nil, analysis.LineError(name, r.N+1, "expected at least one perf script sample, found none")
	}
	pp.warnDropped()
	if pp.cutAt != "" {
		pp.b.Warn(pp.cutAt)
	}
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

// frameMatch reads a stack line into the address, the symbol and the dso
// (nil when it is none). perf script writes "addr symbol+off (dso)", and
// with -F any part of it: "addr symbol", "addr (dso)", "addr". A dso is a
// path or a bracketed name ("(/usr/lib/libc.so.6)", "([kernel.kallsyms])"),
// or "(inlined)", so that a symbol's own parentheses ("f(int)", "(anonymous
// namespace)::g") are not taken for one. The script's emulation uses its
// regular expressions.
func (pp *perfParser) frameMatch(line string) []string {
	switch {
	case pp.o.before2023:
		return perfFrame0.FindStringSubmatch(line)
	case pp.o.flamegraph:
		return perfFrame.FindStringSubmatch(line)
	}
	t := strings.TrimSpace(line)
	addr, rest := t, ""
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		addr, rest = t[:i], strings.TrimSpace(t[i+1:])
	}
	if !isAddress(addr) {
		return nil
	}
	sym, dso := rest, ""
	if strings.HasSuffix(rest, ")") {
		i := max(strings.LastIndex(" "+rest, " (/"), strings.LastIndex(" "+rest, " (["))
		if strings.HasSuffix(" "+rest, " (inlined)") {
			i = len(rest) - len("(inlined)")
		}
		if i >= 0 {
			sym, dso = strings.TrimSpace(rest[:i]), rest[i+1:len(rest)-1]
		}
	}
	if sym == "" {
		sym = "[unknown]"
	}
	if dso == "" {
		dso = "[unknown]"
	}
	return []string{line, addr, sym, dso}
}

// isAddress reports whether s is a hexadecimal address.
func isAddress(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// srcLine reports whether line is a source line below a frame (-F
// +srcline), which is skipped.
func (pp *perfParser) srcLine(line string) bool {
	return pp.open && !pp.o.flamegraph && perfSrcLine.MatchString(line)
}

// looksCut reports whether a stack line that ends the file without a
// newline was cut: its dso is not closed ("4005d6 main (/usr/bi").
func looksCut(line string) bool {
	return (strings.Contains(line, " (/") || strings.Contains(line, " ([")) && !strings.HasSuffix(line, ")")
}

// cut ends the read at line n, which the file ends in the middle of (perf
// was still writing when it was copied): the sample it belongs to is
// incomplete and is left out, with a warning.
func (pp *perfParser) cut(n int) {
	from := n
	if pp.open {
		from = pp.startLine
	}
	pp.pname, pp.open, pp.anonymous = "", false, false
	pp.cutAt = fmt.Sprintf("the file ends in the middle of line %d (cut off while perf was writing it?): the sample from line %d on is incomplete and was left out", n, from)
}

// eventLine reads line n if it is an event line, and reports whether it
// is. perf writes the comm first; without call chains it pads the comm
// with spaces, and such a line must then show a time or an event to be
// told from a stack line.
func (pp *perfParser) eventLine(line string, n int) bool {
	padded := line[0] == ' ' || line[0] == '\t'
	m := perfEvent.FindStringSubmatch(strings.TrimLeft(line, " \t"))
	if m == nil || padded && (pp.o.flamegraph || !isEventLine(line)) {
		return false
	}
	pp.flush()
	pp.start(line, m)
	pp.startLine = n
	return true
}

// isEventLine reports whether line reads as an event line: "comm
// pid/tid", then, when padded, a time or an event.
func isEventLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	m := perfEvent.FindStringSubmatch(t)
	if m == nil || len(t) == len(line) {
		return m != nil
	}
	f := parseEventFields(t[len(m[0]):])
	return f.time || f.event != "" || perfPeriod.MatchString(t)
}

// eventFields are what an event line gives after "comm pid/tid", in the
// order perf script writes them: [cpu] time: period event: and, for a
// sample without a call chain, its "addr symbol (dso)".
type eventFields struct {
	time      bool
	period    int64
	hasPeriod bool
	event     string
	frame     string
}

func parseEventFields(rest string) eventFields {
	var e eventFields
	f := strings.Fields(rest)
	i := 0
	if i < len(f) && perfPidTid.MatchString(f[i]) {
		i++ // after a comm with a number in it ("FS Broker 5906")
	}
	if i < len(f) && strings.HasPrefix(f[i], "[") && strings.HasSuffix(f[i], "]") && text.Digits(f[i][1:len(f[i])-1]) {
		i++ // the cpu
	}
	if i < len(f) && perfTimeField.MatchString(f[i]) {
		e.time = true
		i++
	}
	if i < len(f) && text.Digits(f[i]) {
		if v, err := strconv.ParseInt(f[i], 10, 64); err == nil {
			e.period, e.hasPeriod = v, true
		}
		i++
	}
	if i < len(f) && len(f[i]) > 1 && strings.HasSuffix(f[i], ":") {
		e.event = strings.TrimSuffix(f[i], ":")
		i++
		if i < len(f) && isAddress(f[i]) {
			e.frame = strings.Join(f[i:], " ")
		}
	}
	return e
}

// start reads an event line; m holds comm, pid and tid.
func (pp *perfParser) start(line string, m []string) {
	comm, pid, tid := m[1], m[2], m[3]
	if tid == "" {
		pid, tid = "?", pid
	}
	pp.open = true
	period := int64(1)
	var f eventFields
	if e := perfPeriod.FindStringSubmatch(line); e != nil { // the script's reading: "period event:" at the end
		f.period, _ = strconv.ParseInt(e[1], 10, 64)
		f.event = e[2]
	} else if !pp.o.flamegraph { // other layouts of perf script -F
		f = parseEventFields(strings.TrimLeft(line, " \t")[len(m[0]):])
	}
	if f.event != "" {
		if pp.event == "" {
			pp.event = f.event
		} else if f.event != pp.event {
			pp.dropped[f.event]++
			pp.pname = ""
			return
		}
		if f.period != 0 {
			period = f.period
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
	if f.frame != "" {
		pp.frameLine(f.frame)
	}
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
	ids, cached := pp.cache[java][line]
	var m []string
	if !cached {
		if m = pp.frameMatch(line); m == nil {
			return false
		}
	}
	if !pp.open && !pp.o.flamegraph { // perf script -F without comm and tid: no event line
		pp.open, pp.anonymous, pp.pname, pp.period, pp.hasTime, pp.thread = true, true, "", 1, false, analysis.Thread{}
		pp.stack = pp.stack[:0]
	}
	if !pp.keeping() {
		return true // a sample that is not kept
	}
	if !cached {
		ids = pp.frameIDs(m)
		pp.cache[java][line] = ids
	}
	pp.stack = append(pp.stack, ids...)
	return true
}

// keeping reports whether the sample being read is kept.
func (pp *perfParser) keeping() bool { return pp.pname != "" || pp.anonymous }

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
		ids = append(ids, pp.builder().Frame(analysis.Frame{Name: name, File: mod, Lib: mod}))
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
	defer func() { pp.open, pp.anonymous = false, false }()
	if !pp.keeping() {
		return
	}
	b := pp.builder()
	if pp.pname != "" {
		pp.stack = append(pp.stack, b.Frame(analysis.Frame{Name: pp.pname}))
	}
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
