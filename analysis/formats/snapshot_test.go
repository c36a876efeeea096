package formats

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// snapFrame is one frame of a speedscope importer snapshot.
type snapFrame struct {
	name, file, line, col string
	self, total           float64
}

// readSnapshots reads the frames of every export of a Jest snapshot file of
// speedscope's importers, and the profile name of each export.
func readSnapshots(t *testing.T, path string) (frames map[string][]snapFrame, names map[string]string, stacks map[string][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	frames, names, stacks = map[string][]snapFrame{}, map[string]string{}, map[string][]string{}
	var export string
	inStacks := false
	var cur *snapFrame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "exports[`"):
			export = line[len("exports[`"):strings.Index(line, "`]")]
			frames[export] = []snapFrame{}
		case strings.TrimSpace(line) == "Frame {":
			cur = &snapFrame{}
		case strings.TrimSpace(line) == "},":
			if cur != nil {
				frames[export] = append(frames[export], *cur)
				cur = nil
			}
		case strings.HasPrefix(line, `  "stacks": [`):
			inStacks = !strings.HasSuffix(line, "[],")
		case inStacks && strings.HasPrefix(line, "  ]"):
			inStacks = false
		case inStacks:
			stacks[export] = append(stacks[export], snapValue(t, ": "+line))
		case strings.HasPrefix(line, `  "name": `):
			names[export] = snapValue(t, line)
		case cur != nil:
			k, _, _ := strings.Cut(strings.TrimSpace(line), ":")
			v := snapValue(t, line)
			switch k {
			case `"name"`:
				cur.name = v
			case `"file"`:
				cur.file = v
			case `"line"`:
				cur.line = v
			case `"col"`:
				cur.col = v
			case `"selfWeight"`:
				cur.self, _ = strconv.ParseFloat(v, 64)
			case `"totalWeight"`:
				cur.total, _ = strconv.ParseFloat(v, 64)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return frames, names, stacks
}

// snapValue returns the value of a `"key": value,` snapshot line, unquoted.
func snapValue(t *testing.T, line string) string {
	_, v, _ := strings.Cut(line, ": ")
	v = strings.TrimSuffix(strings.TrimSpace(v), ",")
	if strings.HasPrefix(v, `"`) {
		u, err := strconv.Unquote(v)
		if err != nil {
			// Jest prints inner quotes unescaped: "anonymous {"parent":1}".
			return v[1 : len(v)-1]
		}
		return u
	}
	return v
}

// snapCase is one importer snapshot export and the corpus file it was made
// from.
type snapCase struct {
	snap, export, file string
	key                func(analysis.Frame) string // our frame → comparison key
	snapKey            func(snapFrame) string
	scale              float64 // our value / scale = snapshot weight
}

// jsKey identifies a JavaScript frame by function, URL (its File), line and
// column, from our "fn url:line:col" name.
func jsKey(f analysis.Frame) string {
	if analysis.Guess(f.Name) != analysis.LangJS {
		return f.Name + "|" + f.File + "||"
	}
	sp := strings.LastIndexByte(f.Name, ' ')
	loc := f.Name[sp+1:]
	c2 := strings.LastIndexByte(loc, ':')
	c1 := strings.LastIndexByte(loc[:c2], ':')
	return f.Name[:sp] + "|" + f.File + "|" + loc[c1+1:c2] + "|" + loc[c2+1:]
}

// jsSnapKey is jsKey for speedscope's frames, whose anonymous functions are
// named "(anonymous file.js:line)" and whose VM frames have line 0 or none.
func jsSnapKey(f snapFrame) string {
	name := f.name
	if strings.HasPrefix(name, "(anonymous ") {
		name = "(anonymous)"
	}
	line, col, file := f.line, f.col, f.file
	if file == "undefined" || file == "null" {
		file = ""
	}
	if line == "0" || line == "undefined" || line == "null" {
		line, col = "", ""
	}
	return name + "|" + file + "|" + line + "|" + col
}

// heapSnapKey is jsSnapKey for speedscope's heap frames, whose lines and
// columns stay 0-based; the "(root)" pseudo-frame, which we drop, has none.
func heapSnapKey(f snapFrame) string {
	if f.name == "(root)" {
		return "(root)"
	}
	l, _ := strconv.Atoi(f.line)
	c, _ := strconv.Atoi(f.col)
	f.line, f.col = strconv.Itoa(l+1), strconv.Itoa(c+1)
	return jsSnapKey(f)
}

func nameKey(f analysis.Frame) string  { return f.Name }
func nameSnapKey(f snapFrame) string   { return f.name }
func pprofKey(f analysis.Frame) string { return f.Name + "|" + f.File }
func pprofSnapKey(f snapFrame) string {
	return f.name + "|" + f.file
}

const ss = "speedscope/sample/profiles/"

var snapCases = []snapCase{
	{"chrome", "importFromChromeCPUProfile 1", ss + "Chrome/65/simple.cpuprofile", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromV8Profiler Node 10 1", ss + "node/10.11.0/example.cpuprofile", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline 1", ss + "Chrome/65/simple-timeline.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline chunked 1", ss + "Chrome/65/simple-timeline.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Chrome 69 1", ss + "Chrome/69/simple.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Chrome 116 1", ss + "Chrome/116/Trace-20230603T221323.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Workers Chrome 66 1", ss + "Chrome/66/worker.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Workers Chrome 66 2", ss + "Chrome/66/worker.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Workers Chrome 70 1", ss + "Chrome/70/worker.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importFromChromeTimeline Workers Chrome 70 2", ss + "Chrome/70/worker.json", jsKey, jsSnapKey, 1000},
	{"chrome", "importTraceEvents Chrome 141 profile with missing arg data 1", ss + "Chrome/141/no-arg-data.json", jsKey, jsSnapKey, 1000},
	{"v8heapalloc", "importV8HeapAlloc from Chrome 1", ss + "Chrome/69/Heap-20181005T144546.heapprofile", jsKey, heapSnapKey, 1},
	{"v8heapalloc", "importV8HeapAlloc from NodeJS 1", ss + "node/10.11.0/Heap-20181003T105432.heapprofile", jsKey, heapSnapKey, 1},
	{"file-format", "importSpeedscopeProfiles 0.0.1 evented profile 1", ss + "speedscope/0.0.1/simple.speedscope.json", nameKey, nameSnapKey, 1},
	{"file-format", "importSpeedscopeProfiles 0.0.1 evented profile (no pretty print) 1", ss + "speedscope/0.0.1/simple-no-pretty-print.speedscope.json", nameKey, nameSnapKey, 1},
	{"file-format", "importSpeedscopeProfiles 0.1.2 sampled profile 1", ss + "speedscope/0.1.2/simple-sampled.speedscope.json", nameKey, nameSnapKey, 1e9},
	{"file-format", "importSpeedscopeProfiles 0.6.0 multiple profiles 1", ss + "speedscope/0.6.0/two-sampled.speedscope.json", nameKey, nameSnapKey, 1e9},
	{"file-format", "importSpeedscopeProfiles 0.6.0 multiple profiles 2", ss + "speedscope/0.6.0/two-sampled.speedscope.json", nameKey, nameSnapKey, 1e9},
	{"pprof", "importAsPprofProfile 1", ss + "pprof/simple.prof", pprofKey, pprofSnapKey, 1},
	{"bg-flamegraph", "importFromBGFlameGraph 1", ss + "stackcollapse/simple.txt", nameKey, nameSnapKey, 1},
	{"bg-flamegraph", "importFromBGFlameGraph with CRLF 1", ss + "stackcollapse/simple-crlf.txt", nameKey, nameSnapKey, 1},
	{"bg-flamegraph", "importFromBGFlameGraph with UTF-16, Little Endian 1", ss + "stackcollapse/simple-utf16-le.txt", nameKey, nameSnapKey, 1},
	{"bg-flamegraph", "importFromBGFlameGraph with UTF-16, Big Endian 1", ss + "stackcollapse/simple-utf16-be.txt", nameKey, nameSnapKey, 1},
	// "with invalid lines" is left out: speedscope skips lines that are not
	// stacks, our folded loader reports them as errors.
}

// snapPaths maps a snapshot short name to its file.
func snapPath(name string) string {
	dir := "speedscope/src/import/__snapshots__/"
	if name == "file-format" {
		dir = "speedscope/src/lib/__snapshots__/"
	}
	return dir + name + ".test.ts.snap"
}

// TestSpeedscopeSnapshots checks every frame's self and total weight against
// speedscope's own importer snapshots, for every format we load that they
// cover. Speedscope's perf importer weighs samples by time, unlike
// FlameGraph's counts that our perf loader follows, so perf is checked
// against FlameGraph's results elsewhere.
func TestSpeedscopeSnapshots(t *testing.T) {
	snaps := map[string]map[string][]snapFrame{}
	names := map[string]map[string]string{}
	stacks := map[string]map[string][]string{}
	for _, c := range snapCases {
		t.Run(c.export, func(t *testing.T) {
			if snaps[c.snap] == nil {
				snaps[c.snap], names[c.snap], stacks[c.snap] = readSnapshots(t, testprof.CorpusFile(t, snapPath(c.snap)))
			}
			want, ok := snaps[c.snap][c.export]
			if !ok {
				t.Fatalf("snapshot %s has no export %q", c.snap, c.export)
			}
			p, err := analysis.Load(context.Background(), testprof.CorpusFile(t, c.file), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				return
			}
			if c.snap == "chrome" {
				p = speedscopePlacement(p)
			}
			var msgs []string
			for _, th := range testprof.Threads(p) {
				m := compareSnap(c, p, th, want)
				if len(m) == 0 && c.snap == "chrome" {
					m = compareStacks(p, th, stacks[c.snap][c.export])
					msgs = m // the frames match: report this thread's order
				} else if msgs == nil {
					msgs = m
				}
				if len(m) == 0 {
					return
				}
			}
			t.Errorf("%s: no thread matches the snapshot %q:\n%s", c.file, names[c.snap][c.export], strings.Join(msgs, "\n"))
		})
	}
}

// speedscopePlacement returns p with V8's pseudo-frames placed as
// speedscope places them: a "(garbage collector)" or "(program)" sample,
// a root in p as in the file, on top of its thread's previous stack (or
// that stack cut back to it, when it is there already), and an "(idle)"
// sample with no stack.
func speedscopePlacement(p *analysis.Profile) *analysis.Profile {
	b := analysis.NewBuilder(p.Format, p.ValueTypes...)
	ids := make([]int32, len(p.Frames))
	for i, f := range p.Frames {
		ids[i] = b.Frame(f)
	}
	prev := map[string][]int32{}
	for i := range p.Samples {
		s := &p.Samples[i]
		th := p.Thread(s)
		var st []int32
		for _, f := range p.Stacks.At(s.Stack) {
			st = append(st, ids[f])
		}
		if len(st) == 1 {
			switch p.Frames[p.Stacks.At(s.Stack)[0]].Name {
			case "(garbage collector)", "(program)":
				pr := prev[th]
				if at := slices.Index(pr, st[0]); at >= 0 { // back to it
					st = pr[:at+1]
				} else {
					st = append(slices.Clone(pr), st[0])
				}
			case "(idle)":
				st = nil
			}
		}
		prev[th] = st
		b.Add(b.Stack(st), p.Values(s), s.Time, true, th, nil)
	}
	q := b.Finish()
	q.DefaultValue = p.DefaultValue
	return q
}

// compareSnap compares the frames of one thread of p with a snapshot.
func compareSnap(c snapCase, p *analysis.Profile, thread string, want []snapFrame) []string {
	sub := *p
	sub.Samples = nil
	for _, s := range p.Samples {
		if p.Thread(&s) == thread {
			sub.Samples = append(sub.Samples, s)
		}
	}
	keys := map[string]int32{}
	group := make([]int32, len(p.Frames))
	for f, fr := range p.Frames {
		k := c.key(fr)
		if _, ok := keys[k]; !ok {
			keys[k] = int32(len(keys))
		}
		group[f] = keys[k]
	}
	tree := analysis.NewTree(&sub)
	self, total := analysis.GroupTotals(tree, sub.DefaultValue, group)
	var msgs []string
	matched := map[int32]bool{}
	for _, w := range want {
		g, ok := keys[c.snapKey(w)]
		gotSelf, gotTotal := float64(self[g])/c.scale, float64(total[g])/c.scale
		if !ok && w.name == "(root)" && w.self == 0 {
			continue // a pseudo-frame we drop
		}
		if !ok && (w.self != 0 || w.total != 0) {
			msgs = append(msgs, fmt.Sprintf("frame %s: missing", c.snapKey(w)))
			continue
		}
		matched[g] = true
		if !near(gotSelf, w.self) || !near(gotTotal, w.total) {
			msgs = append(msgs, fmt.Sprintf("frame %s: self, total = %v, %v, want %v, %v", c.snapKey(w), gotSelf, gotTotal, w.self, w.total))
		}
	}
	for k, g := range keys {
		if !matched[g] && total[g] != 0 {
			msgs = append(msgs, fmt.Sprintf("frame %s: total %v, not in the snapshot", k, float64(total[g])/c.scale))
		}
	}
	sort.Strings(msgs)
	return msgs
}

// near compares weights up to the rounding of speedscope's float sums.
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b))
}

// compareStacks compares the time order of one thread of p with the
// snapshot's list of stacks: each maximal run of one stack, named with
// speedscope's frame names, and its duration as speedscope formats
// microseconds. Speedscope's leading empty stack (the time before the first
// sample, which we do not represent) is skipped.
func compareStacks(p *analysis.Profile, thread string, want []string) []string {
	if len(want) > 0 && strings.HasPrefix(want[0], " ") {
		want = want[1:]
	}
	var got []string
	last, acc := "", int64(0)
	flush := func() {
		if acc > 0 && (last != "" || len(got) > 0) {
			got = append(got, last+" "+usFormat(float64(acc)/1000))
		}
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		if p.Thread(s) != thread {
			continue
		}
		var names []string
		for _, f := range p.Stacks.At(s.Stack) {
			names = append(names, speedscopeJSName(p.Frames[f]))
		}
		st := strings.Join(names, ";")
		if st != last {
			flush()
			last, acc = st, 0
		}
		acc += p.Value(s, 1)
	}
	flush()
	if n := len(got); n > 0 && strings.HasPrefix(got[n-1], " ") {
		got = got[:n-1] // trailing idle time, which speedscope does not show either
	}
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%d stack runs, want %d; first %q / %q, last %q / %q", len(got), len(want), got[0], want[0], got[len(got)-1], want[len(want)-1])}
	}
	for i := range got {
		if got[i] != want[i] {
			return []string{fmt.Sprintf("stack run %d = %q, want %q", i, got[i], want[i])}
		}
	}
	return nil
}

// speedscopeJSName is the name speedscope gives a JavaScript frame.
func speedscopeJSName(f analysis.Frame) string {
	k := strings.Split(jsKey(f), "|")
	if k[0] == "(anonymous)" && k[1] != "" {
		return "(anonymous " + k[1][strings.LastIndexByte(k[1], '/')+1:] + ":" + k[2] + ")"
	}
	return k[0]
}

// usFormat formats microseconds as speedscope's TimeFormatter does.
func usFormat(us float64) string {
	s := us * 1e-6
	switch {
	case s >= 60:
		m := math.Floor(s / 60)
		return fmt.Sprintf("%d:%02d", int(m), int(math.Floor(s-m*60)))
	case s >= 1:
		return toFixed2(s) + "s"
	case s >= 1e-3:
		return toFixed2(s/1e-3) + "ms"
	case s >= 1e-6:
		return toFixed2(s/1e-6) + "µs"
	}
	return toFixed2(s/1e-9) + "ns"
}

// toFixed2 is JavaScript's x.toFixed(2) for x ≥ 0: rounded from x's exact
// binary value, with exact halves rounded up (Go rounds them to even).
func toFixed2(x float64) string {
	exact := new(big.Float).SetFloat64(x).Text('f', 80)
	dot := strings.IndexByte(exact, '.')
	if strings.TrimRight(exact[dot+3:], "0") == "5" {
		x = math.Nextafter(x, math.Inf(1)) // an exact half: push it up
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
