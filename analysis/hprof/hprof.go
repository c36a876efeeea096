// Package hprof reads Java hprof ASCII output (-agentlib:hprof=cpu=samples
// or cpu=times): THREAD START records name the threads, TRACE records give
// stacks leaf first, and the CPU table gives values per trace. Each table
// row becomes one sample. With cpu=samples the CPU SAMPLES BEGIN … END
// table gives a sample count (samples/count); with cpu=times the CPU TIME
// (ms) BEGIN … END table gives each trace's share of the total time, spent
// in its method itself, and its number of calls (cpu/nanoseconds, the share
// of the total, and calls/count). Rows hprof left out below its cutoff are
// reported as a warning.
package hprof

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/text"
)

func init() {
	analysis.RegisterFormat(analysis.Format{Name: "hprof", Priority: 20, Sniff: sniff, Parse: parse})
}

var hprofTraceLine = regexp.MustCompile(`(?m)^TRACE \d+:`)

func sniff(head []byte) bool {
	return bytes.HasPrefix(head, []byte("JAVA PROFILE ")) || hprofTraceLine.Match(head)
}

// hprofDate is the layout of hprof's dates ("Mon Jan 05 16:00:30 2009").
const hprofDate = "Mon Jan _2 15:04:05 2006"

type hprofTrace struct {
	stack  int32
	thread string
}

type hprofParser struct {
	name    string
	r       *text.Reader
	b       *analysis.Builder
	threads map[string]string // thread id → name
	traces  map[string]hprofTrace
	frames  []int32
	kind    *table
	tables  int
	rows    []hprofTrace // rows of the last table, with their values
	values  []int64      // len(kind.types) per row
	created time.Time
}

func parse(in *analysis.Input) (*analysis.Profile, error) {
	name, data := in.Name, in.Data
	kind := &samplesTable
	if bytes.Contains(data, []byte(timesTable.begin)) {
		kind = &timesTable
	}
	h := &hprofParser{
		name:    name,
		r:       text.NewReader(in.Context(), data),
		b:       in.NewBuilder(kind.types...),
		kind:    kind,
		threads: map[string]string{},
		traces:  map[string]hprofTrace{},
	}
	h.b.Profile().Lang = analysis.LangJVM
	for h.r.Next() {
		if err := h.line(); err != nil {
			return nil, err
		}
	}
	if h.tables == 0 {
		return nil, analysis.LineError(name, h.r.N, "expected a %s … END table (hprof cpu=samples or cpu=times output) before the end of the file", kind.begin)
	}
	if h.tables > 1 {
		h.b.Warn(strconv.Itoa(h.tables) + " " + kind.begin + " tables; kept the last (hprof's tables are cumulative)")
	}
	k := len(kind.types)
	for i, t := range h.rows {
		h.b.Add(t.stack, h.values[i*k:(i+1)*k], 0, false, t.thread, nil)
	}
	return h.b.Finish(), nil
}

func (h *hprofParser) line() error {
	s := string(h.r.Line)
	switch {
	case strings.HasPrefix(s, "JAVA PROFILE "):
		if i := strings.Index(s, "created "); i >= 0 {
			if t, err := time.Parse(hprofDate, strings.TrimSpace(s[i+len("created "):])); err == nil {
				h.created = t
				h.b.Profile().Start = t
				h.b.Note("hprof's dates have no time zone (it writes the machine's local time): the start is shown as if it were UTC")
			}
		}
	case strings.HasPrefix(s, "THREAD START "):
		h.thread(s)
	case strings.HasPrefix(s, "TRACE ") && hprofTraceLine.MatchString(s):
		return h.trace(s)
	case strings.HasPrefix(s, h.kind.begin):
		return h.table(s)
	}
	return nil
}

// thread records a THREAD START (obj=…, id = 200001, name="main", group="main").
func (h *hprofParser) thread(s string) {
	id := attr(s, "id = ")
	if n := attr(s, `name="`); id != "" && n != "" {
		h.threads[id] = strings.TrimSuffix(n, `"`)
	}
}

// attr returns the text after key up to the next ',' or ')'.
func attr(s, key string) string {
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	s = s[i+len(key):]
	if j := strings.IndexAny(s, ",)"); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// trace reads "TRACE 301138: (thread=200001)" and its indented frame lines;
// s matches hprofTraceLine, so digits come before the first colon.
func (h *hprofParser) trace(s string) error {
	rest := strings.TrimPrefix(s, "TRACE ")
	colon := strings.IndexByte(rest, ':')
	id := rest[:colon]
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return analysis.LineError(h.name, h.r.N, "expected a trace number after TRACE, got %q", text.Clip(id))
	}
	if _, dup := h.traces[id]; dup {
		return analysis.LineError(h.name, h.r.N, "expected a new trace number, but trace %s is defined twice", id)
	}
	thread := h.threads[attr(rest[colon:], "thread=")]
	h.frames = h.frames[:0]
	for {
		next, _, ok := h.r.Peek()
		if !ok || len(next) == 0 || (next[0] != '\t' && next[0] != ' ') {
			break
		}
		h.r.Next()
		if f, ok := hprofFrame(strings.TrimSpace(string(next))); ok {
			h.frames = append(h.frames, h.b.Frame(f))
		}
	}
	slices.Reverse(h.frames)
	h.traces[id] = hprofTrace{stack: h.b.Stack(h.frames), thread: thread}
	return nil
}

// hprofFrame parses "pkg.Class.method(File.java:12)"; "<empty>" is no frame.
// The line is where the method was executing or calling, not where it
// starts, so it is dropped: frames are methods, and two traces through
// different lines of one method share its call-tree node.
func hprofFrame(s string) (analysis.Frame, bool) {
	if s == "" || s == "<empty>" {
		return analysis.Frame{}, false
	}
	open := strings.LastIndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return analysis.Frame{Name: s}, true
	}
	f := analysis.Frame{Name: s[:open]}
	loc := s[open+1 : len(s)-1]
	if c := strings.LastIndexByte(loc, ':'); c >= 0 {
		loc = loc[:c]
	}
	if !strings.HasPrefix(loc, "<") && !strings.Contains(loc, " ") {
		f.File = loc
	}
	return f, true
}

// table reads a table's header ("CPU SAMPLES BEGIN (total = 6) Tue Apr  6
// 17:20:40 2010"), its column header, its rows and its END line.
func (h *hprofParser) table(s string) error {
	k := h.kind
	total, err := strconv.ParseInt(attr(s, "total = "), 10, 64)
	if err != nil || total < 0 || total >= 1<<40 {
		return analysis.LineError(h.name, h.r.N, "expected \"(total = N)\" after %s, N below 2^40, got %q", k.begin, text.Clip(s))
	}
	if i := strings.LastIndexByte(s, ')'); i >= 0 && !h.created.IsZero() {
		if end, err := time.Parse(hprofDate, strings.TrimSpace(s[i+1:])); err == nil && end.After(h.created) {
			h.b.Profile().Duration = end.Sub(h.created)
		}
	}
	h.tables++
	h.rows, h.values = h.rows[:0], h.values[:0]
	var covered int64
	for h.r.Next() {
		row := string(h.r.Line)
		f := strings.Fields(row)
		switch {
		case strings.HasPrefix(row, k.end):
			if w := k.cutoff(covered, total, len(h.rows)); w != "" {
				h.b.Warn(w)
			}
			return nil
		case len(f) > 0 && f[0] == "rank":
			continue
		}
		n, err := h.row(f, total)
		if err != nil {
			return err
		}
		covered += n
	}
	return analysis.LineError(h.name, h.r.N, "expected %s before the end of the file (truncated?)", k.end)
}

// row adds one table row "rank self% accum% count trace method" and
// returns how much of the table's total it covers.
func (h *hprofParser) row(f []string, total int64) (int64, error) {
	if len(f) < 5 {
		return 0, analysis.LineError(h.name, h.r.N, "expected a row \"rank self accum count trace method\" or %s, got %q", h.kind.end, text.Clip(string(h.r.Line)))
	}
	n, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil || n < 0 {
		return 0, analysis.LineError(h.name, h.r.N, "expected a count in column 4, got %q", text.Clip(f[3]))
	}
	t, ok := h.traces[f[4]]
	if !ok {
		return 0, analysis.LineError(h.name, h.r.N, "expected a trace defined by a TRACE record before the table, got trace %q", text.Clip(f[4]))
	}
	values, covered, ok := h.kind.row(f[1], n, total)
	if !ok {
		return 0, analysis.LineError(h.name, h.r.N, "expected a percentage of the total in column 2, got %q", text.Clip(f[1]))
	}
	h.rows = append(h.rows, t)
	h.values = append(h.values, values...)
	return covered, nil
}
