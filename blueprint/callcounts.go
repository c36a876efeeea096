package blueprint

import (
	"errors"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// ErrNoCounts is CallCounts' error for a profile that has no source of
// call counts; its text says what would give them.
var ErrNoCounts = errors.New("no call counts: a sampled profile without times says how much, not how often. " +
	"Counts come from evented recordings (Chrome traces with B/E/X events, speedscope evented profiles), " +
	"callgrind files (valgrind --tool=callgrind), a second value type that counts " +
	"(heap profiles' objects, mutex and block profiles' contentions), " +
	"or samples in time order (perf script, Go execution traces), whose consecutive stacks give entries")

// CallCounts returns how many times each node of t was entered, for a
// picture of value type v (an index into the profile's ValueTypes), from
// the best source the profile has, and which. base is the profile that t's
// was filtered from (Profile.Filter), or t's own:
//   - CountEvents: the entries of an evented recording (EntryCounts);
//   - CountCallgrind: the calls= lines of a callgrind file (its "calls"
//     value type holds each call path's count, on the path's own sample:
//     a node counts the samples of base whose leaf frame is still its
//     frame, so that a path whose leaf a filter hides does not add its
//     count to its caller's);
//   - CountObjects: a heap profile's objects value type, the one paired
//     with v (alloc_space → alloc_objects, inuse_space → inuse_objects);
//     a node's count is then the objects allocated on call paths through
//     it, inclusive like its value;
//   - CountContentions: a mutex or block profile's contentions, inclusive
//     too;
//   - CountStackDiffs: entries recovered from samples in time order
//     (EntryCounts), a lower bound.
//
// A profile with none of them gives ErrNoCounts.
func CallCounts(t *analysis.Tree, base *analysis.Profile, v int) (analysis.Counts, error) {
	p := t.Profile
	if c := p.ValueIndex("calls"); c >= 0 && p.Format == "callgrind" {
		return analysis.Counts{Source: analysis.CountCallgrind, Calls: pathCounts(t, base, c)}, nil
	}
	if len(p.Calls) > 0 {
		c, _ := analysis.EntryCounts(t)
		return c, nil
	}
	if c, src := countType(p, v); c >= 0 {
		return analysis.Counts{Source: src, Calls: append([]int64(nil), t.Total[c]...)}, nil
	}
	if c, ok := analysis.EntryCounts(t); ok {
		return c, nil
	}
	return analysis.Counts{}, ErrNoCounts
}

// pathCounts sums value c of the samples of base on the nodes of t where
// their stacks end, when a stack still ends with its own leaf frame there
// (base and t's profile share samples, frames and stack ids).
func pathCounts(t *analysis.Tree, base *analysis.Profile, c int) []int64 {
	calls := make([]int64, t.Len())
	for i := range base.Samples {
		s := &base.Samples[i]
		st := base.Stacks.At(s.Stack)
		if n := t.StackNode[s.Stack]; n >= 0 && len(st) > 0 && t.Frame[n] == st[len(st)-1] {
			calls[n] += base.Value(s, c)
		}
	}
	return calls
}

// countType returns the value type of p that counts what v measures, and
// its source: "contentions" beside a delay; the objects type of v's family
// ("alloc_space" → "alloc_objects", "space" → "objects"), v itself when it
// counts objects, or else the first objects type. It returns -1 when there
// is none.
func countType(p *analysis.Profile, v int) (int, analysis.CountSource) {
	if c := p.ValueIndex("contentions"); c >= 0 {
		return c, analysis.CountContentions
	}
	if v >= 0 && v < len(p.ValueTypes) {
		t := p.ValueTypes[v].Type
		if strings.HasSuffix(t, "objects") {
			return v, analysis.CountObjects
		}
		if prefix, ok := strings.CutSuffix(t, "space"); ok {
			if c := p.ValueIndex(prefix + "objects"); c >= 0 {
				return c, analysis.CountObjects
			}
		}
	}
	for i, vt := range p.ValueTypes {
		if strings.HasSuffix(vt.Type, "objects") {
			return i, analysis.CountObjects
		}
	}
	return -1, ""
}
