package formats

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// traceEventFiles maps the tests of speedscope's trace-event importer
// (src/import/trace-event.test.ts) to their input files.
var traceEventFiles = map[string]string{
	"simple":                                         "simple.json",
	"simple object":                                  "simple-object.json",
	"multiprocess":                                   "multiprocess.json",
	"partial json import":                            "simple-partial.json",
	"partial json import chunked":                    "simple-partial.json",
	"partial json import trailing comma":             "simple-partial-trailing-comma.json",
	"partial json import trailing comma chunked":     "simple-partial-trailing-comma.json",
	"partial json import whitespace padding":         "simple-partial-whitespace.json",
	"partial json import whitespace padding chunked": "simple-partial-whitespace.json",
	"bad E events":                                   "too-many-end-events.json",
	"different number of start and end calls to same function at same timestamp": "simultaneous-anonymous-calls.json",
	"event re-ordering":                   "must-retain-original-order.json",
	"end-non-top-of-stack":                "end-non-top-of-stack.json",
	"mismatched args":                     "mismatched-args.json",
	"mismatched name":                     "mismatched-name.json",
	"not enough end events":               "not-enough-end-events.json",
	"not out-of-order unbalanced name":    "out-of-order-unbalanced-name.json",
	"not out-of-order":                    "out-of-order.json",
	"unbalanced name":                     "unbalanced-name.json",
	"unbalanced args":                     "unbalanced-args.json",
	"end event with empty stack":          "end-event-with-empty-stack.json",
	"only begin events":                   "only-begin-events.json",
	"zero duration events":                "zero-duration-events.json",
	"matching x":                          "matching-x.json",
	"x events matching start":             "x-events-matching-start.json",
	"x events matching end":               "x-events-matching-end.json",
	"BEX interaction":                     "bex-interaction.json",
	"invalid x nesting":                   "invalid-x-nesting.json",
	"event reordering name match":         "event-reordering-name-match.json",
	"simple hermes profile":               "simple-hermes.json",
	"hermes profile with multiple frames": "simple-hermes.json",
	"simple profile with samples":         "simple-with-samples.json",
	"multi-thread profile with samples":   "multi-thread-with-samples.json",
}

// traceEventDeviations are the tests of speedscope's importer whose spans
// do not nest or whose ends come before their begins: speedscope stretches
// a span to its last nested span, or reorders events of equal times, and
// the chrome loader keeps each span's own duration and the file's order
// (see analysis/chrome/tracks.go). Their expected results are the chrome
// package's goldens (analysis/chrome/testdata/spans).
var traceEventDeviations = map[string]string{
	"end-non-top-of-stack":             "an E closes a span that is not the innermost one",
	"invalid x nesting":                "two X events overlap without nesting",
	"mismatched name":                  "an E closes nothing: the B stays open until the thread's last event",
	"unbalanced name":                  "two B/E spans overlap without nesting",
	"not out-of-order unbalanced name": "two B/E spans overlap without nesting",
	"zero duration events":             "an E comes before its B at the same time: the file's order is kept",
}

var traceExport = regexp.MustCompile(`^importTraceEvents (.*) ([0-9]+)$`)

// TestSpeedscopeTraceEventSnapshots checks span and trace-sample traces
// against speedscope's trace-event snapshots, one export per thread (found
// by its label). Speedscope names span frames with their args and we do
// not, so frames are compared by name: self weights add up per name, and
// totals are compared where one snapshot frame has the name.
func TestSpeedscopeTraceEventSnapshots(t *testing.T) {
	frames, names, _ := readSnapshots(t, testprof.CorpusFile(t, snapPath("trace-event")))
	var exports []string
	for e := range frames {
		if traceExport.MatchString(e) && !strings.Contains(e, ": ") {
			exports = append(exports, e)
		}
	}
	sort.Strings(exports)
	if len(exports) < 40 {
		t.Fatalf("only %d trace-event exports found", len(exports))
	}
	for _, e := range exports {
		test := traceExport.FindStringSubmatch(e)[1]
		file, ok := traceEventFiles[test]
		if !ok {
			t.Errorf("no input file known for %q", e)
			continue
		}
		t.Run(e, func(t *testing.T) {
			if why, ok := traceEventDeviations[test]; ok {
				t.Skipf("proflens differs by design: %s", why)
			}
			p, err := analysis.Load(context.Background(), testprof.CorpusFile(t, ss+"trace-event/"+file), analysis.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range compareTraceSnap(p, names[e], frames[e], strings.Contains(file, "hermes")) {
				t.Errorf("%s, thread %q: %s", file, names[e], m)
			}
		})
	}
}

func compareTraceSnap(p *analysis.Profile, thread string, want []snapFrame, hermes bool) []string {
	sub := *p
	sub.Samples = nil
	for _, s := range p.Samples {
		if p.Thread(&s) == thread || len(testprof.Threads(p)) == 1 {
			sub.Samples = append(sub.Samples, s)
		}
	}
	key, snapKey := func(f analysis.Frame) string { return f.Name }, func(f snapFrame) string {
		base, _, _ := strings.Cut(f.name, " {")
		return base
	}
	if hermes {
		key, snapKey = jsKey, jsSnapKey
	}
	group := make([]int32, len(p.Frames))
	ids := map[string]int32{}
	for f, fr := range p.Frames {
		k := key(fr)
		if _, ok := ids[k]; !ok {
			ids[k] = int32(len(ids))
		}
		group[f] = ids[k]
	}
	self, total := analysis.GroupTotals(analysis.NewTree(&sub), 0, group)
	wantSelf, wantTotal, count := map[string]float64{}, map[string]float64{}, map[string]int{}
	for _, w := range want {
		k := snapKey(w)
		wantSelf[k] += w.self
		wantTotal[k] = w.total
		count[k]++
	}
	var msgs []string
	for k, ws := range wantSelf {
		g, ok := ids[k]
		gs, gt := float64(self[g])/1000, float64(total[g])/1000
		if !ok && (ws != 0 || wantTotal[k] != 0) {
			msgs = append(msgs, fmt.Sprintf("frame %q missing", k))
			continue
		}
		if !near(gs, ws) || count[k] == 1 && !near(gt, wantTotal[k]) {
			msgs = append(msgs, fmt.Sprintf("frame %q: self, total = %v, %v, want %v, %v", k, gs, gt, ws, wantTotal[k]))
		}
	}
	for k, g := range ids {
		if _, ok := wantSelf[k]; !ok && total[g] != 0 {
			msgs = append(msgs, fmt.Sprintf("frame %q: total %v, not in the snapshot", k, float64(total[g])/1000))
		}
	}
	sort.Strings(msgs)
	return msgs
}
