package chrome

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// TestSpanGoldens loads the minimal span traces of testdata/spans (spans
// that overlap, that share a timestamp, that are not closed or close
// nothing) and compares each profile with its golden dump.
func TestSpanGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/spans/*.json")
	if len(files) < 6 {
		t.Fatalf("found %d span traces, want at least 6", len(files))
	}
	testprof.Goldens(t, files...)
}

// The example: three X events on one thread, A [0,100], B [50,150],
// C [200,1000] µs. No event lasts longer than its dur, C is nobody's
// callee, and nothing is "still open".
func TestSpanOverlapKeepsDurations(t *testing.T) {
	p, err := analysis.Load(context.Background(), "testdata/spans/overlap-x.json", analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{"A": {0, 100}, "B": {50, 150}, "C": {200, 1000}}
	for i := range p.Calls {
		c := &p.Calls[i]
		name := p.Frames[c.Frame].Name
		if got := [2]int64{c.Enter / 1000, c.Exit / 1000}; got != want[name] || c.Depth != 0 {
			t.Errorf("call %s = %v µs at depth %d, want %v at depth 0", name, got, c.Depth, want[name])
		}
	}
	if len(p.Warnings) != 0 || len(p.Notes) != 1 || !strings.HasPrefix(p.Notes[0], "1 of 3 span events overlapped") {
		t.Errorf("warnings %q, notes %q; want no warning and a note saying 1 of 3 events overlapped", p.Warnings, p.Notes)
	}
}

// Events of equal times keep the file's order: an E at t followed by a B
// at t is the next call, a sibling.
func TestSpanEqualTimesAreSiblings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"ph":"B","name":"main","ts":0,"pid":1,"tid":1}`)
	for i := range 2000 {
		fmt.Fprintf(&b, `,{"ph":"B","name":"f","ts":%d,"pid":1,"tid":1},{"ph":"E","name":"f","ts":%d,"pid":1,"tid":1}`, i, i+1)
	}
	b.WriteString(`,{"ph":"E","name":"main","ts":2000,"pid":1,"tid":1}]`)
	p, err := analysis.Parse(context.Background(), "loop.json", []byte(b.String()), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deepest := int32(0)
	for _, c := range p.Calls {
		deepest = max(deepest, c.Depth)
	}
	if len(p.Calls) != 2001 || deepest != 1 {
		t.Errorf("%d calls, deepest at depth %d; want 2001 calls, f always at depth 1", len(p.Calls), deepest)
	}
}

// genSpan is one generated call: a name used by no other, its interval,
// and how it is written.
type genSpan struct {
	name       string
	begin, end int
	how        int // 0: X event; 1: B and E; 2: B alone (never closed)
}

// genTrace makes a random stream of spans on a few threads: nested,
// overlapping, sharing times, of zero length, unclosed; events shuffled
// but for their timestamps. It returns the trace and, per thread, its
// spans.
func genTrace(r *rand.Rand) (string, map[int][]genSpan) {
	spans := map[int][]genSpan{}
	var events []string
	for th := range 1 + r.IntN(3) {
		clock := 0
		for i := range r.IntN(12) {
			s := genSpan{name: fmt.Sprintf("t%d.%d", th, i), how: r.IntN(3)}
			if s.how == 2 && r.IntN(3) > 0 {
				s.how = 1
			}
			s.begin = clock + r.IntN(4) - 1
			s.begin = max(s.begin, 0)
			s.end = s.begin + r.IntN(8)
			clock = s.begin + r.IntN(3)
			spans[th] = append(spans[th], s)
			switch s.how {
			case 0:
				events = append(events, fmt.Sprintf(`{"ph":"X","name":%q,"ts":%d,"dur":%d,"pid":1,"tid":%d}`, s.name, s.begin, s.end-s.begin, th))
			default:
				b := fmt.Sprintf(`{"ph":"B","name":%q,"ts":%d,"pid":1,"tid":%d}`, s.name, s.begin, th)
				e := fmt.Sprintf(`{"ph":"E","name":%q,"ts":%d,"pid":1,"tid":%d}`, s.name, s.end, th)
				switch {
				case s.how == 2:
					events = append(events, b)
				case s.begin == s.end: // the E must follow its B in the file
					events = append(events, b+",\n"+e)
				default:
					events = append(events, b, e)
				}
			}
		}
	}
	r.Shuffle(len(events), func(i, j int) { events[i], events[j] = events[j], events[i] })
	return "[" + strings.Join(events, ",\n") + "]", spans
}

// TestSpanProperties: on random streams of B/E/X events, every call lasts
// exactly its own span (an unclosed B until its thread's last moment),
// every call tree node of a call weighs its span, and on every thread
// (track) of the profile the roots add up to at most the track's busy time
// (the union of its calls) — exactly to it, as the calls of a track nest.
func TestSpanProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	for n := range 3000 {
		trace, spans := genTrace(r)
		p, err := analysis.Parse(context.Background(), "gen.json", []byte(trace), analysis.LoadOptions{Format: "chrome-spans"})
		if len(spans) == 0 || allEmpty(spans) {
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v\n%s", n, err, trace)
		}
		if msg := checkSpans(p, spans); msg != "" {
			t.Fatalf("case %d: %s\n%s\n%s", n, msg, trace, testprof.Dump(p, 0))
		}
	}
}

func allEmpty(spans map[int][]genSpan) bool {
	for _, s := range spans {
		if len(s) > 0 {
			return false
		}
	}
	return true
}

// checkSpans compares p's calls with the generated spans and checks the
// busy time of each track; "" when all holds.
func checkSpans(p *analysis.Profile, spans map[int][]genSpan) string {
	want := map[string][2]int64{}
	for _, ss := range spans {
		last := 0
		for _, s := range ss {
			last = max(last, s.begin)
			if s.how != 2 {
				last = max(last, s.end)
			}
		}
		for _, s := range ss {
			end := s.end
			if s.how == 2 {
				end = last
			}
			want[s.name] = [2]int64{int64(s.begin), int64(end)}
		}
	}
	base := slices.MinFunc(slices.Collect(mapValues(want)), func(a, b [2]int64) int { return int(a[0] - b[0]) })[0]
	roots, durs := map[int32]int64{}, map[string]int64{}
	busy := map[int32][][2]int64{}
	for i := range p.Calls {
		c := &p.Calls[i]
		name := p.Frames[c.Frame].Name
		got := [2]int64{c.Enter/1000 + base, c.Exit/1000 + base}
		if got != want[name] {
			return fmt.Sprintf("call %s = %v, want %v", name, got, want[name])
		}
		delete(want, name)
		durs[name] = got[1] - got[0]
		th := p.CallThread(c)
		if c.Depth == 0 {
			roots[th] += got[1] - got[0]
		}
		busy[th] = append(busy[th], got)
		if c.Parent >= 0 {
			pa := &p.Calls[c.Parent]
			if pa.Enter > c.Enter || pa.Exit < c.Exit || p.CallThread(pa) != th {
				return fmt.Sprintf("call %s [%d,%d] is not inside its caller [%d,%d]", name, c.Enter, c.Exit, pa.Enter, pa.Exit)
			}
		}
	}
	if len(want) > 0 {
		return fmt.Sprintf("spans without a call: %v", want)
	}
	for th, iv := range busy {
		if u := union(iv); roots[th] != u {
			return fmt.Sprintf("thread %q: roots add up to %d µs, busy %d µs", p.ThreadName(th), roots[th], u)
		}
	}
	tree := analysis.NewTree(p)
	for n := range int32(tree.Len()) {
		if d := durs[tree.Name(n)]; tree.Total[0][n] != d*1000 {
			return fmt.Sprintf("call tree node %s weighs %d ns, its span %d µs", tree.Name(n), tree.Total[0][n], d)
		}
	}
	var total int64
	for _, r := range roots {
		total += r
	}
	if p.Total(0) != total*1000 {
		return fmt.Sprintf("samples add up to %d ns, the roots to %d µs", p.Total(0), total)
	}
	return ""
}

func mapValues[K comparable, V any](m map[K]V) func(func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// union is the length of the union of intervals.
func union(iv [][2]int64) int64 {
	iv = slices.Clone(iv)
	slices.SortFunc(iv, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	var n, end int64
	for i, x := range iv {
		if i == 0 || x[0] > end {
			n += x[1] - x[0]
			end = x[1]
		} else if x[1] > end {
			n += x[1] - end
			end = x[1]
		}
	}
	return n
}

// placedBefore orders spans by begin; at equal begins a B/E span closed in
// the file before the other opened comes first, then the longer span, then
// a B/E span before an X event of the same extent, then the file's order.
// Each rule is checked both ways round.
func TestPlacedBefore(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b span
	}{
		{"earlier begin", span{begin: 1, end: 9, endAt: -1}, span{begin: 2, end: 3, endAt: -1, beginAt: -5}},
		{"closed before the other opened", span{begin: 1, end: 1, beginAt: 3, endAt: 4}, span{begin: 1, end: 9, beginAt: 5, endAt: -1}},
		{"longer", span{begin: 1, end: 9, beginAt: 6, endAt: -1}, span{begin: 1, end: 5, beginAt: 2, endAt: -1}},
		{"B/E outside X", span{begin: 1, end: 5, beginAt: 6, endAt: 9}, span{begin: 1, end: 5, beginAt: 2, endAt: -1, x: true}},
		{"file order", span{begin: 1, end: 5, beginAt: 2, endAt: -1, x: true}, span{begin: 1, end: 5, beginAt: 3, endAt: -1, x: true}},
	} {
		if !placedBefore(&c.a, &c.b) || placedBefore(&c.b, &c.a) {
			t.Errorf("%s: placedBefore(a, b) = %v, placedBefore(b, a) = %v; want true, false", c.name, placedBefore(&c.a, &c.b), placedBefore(&c.b, &c.a))
		}
	}
}
