package live

import (
	"fmt"

	"github.com/proflens/proflens/agent"
	"slices"
	"strings"
	"time"
)

// Kind is a kind of collection, DYPER's proflet: what it asks the target
// for and how long it is on.
type Kind string

// The kinds, in their default priority order.
const (
	CPU       Kind = "cpu"       // a CPU profile window: /debug/pprof/profile?seconds=W
	Goroutine Kind = "goroutine" // a goroutine snapshot: /debug/pprof/goroutine
	Heap      Kind = "heap"      // a heap delta over W: /debug/pprof/heap?seconds=W
	Mutex     Kind = "mutex"     // a mutex delta over W
	Block     Kind = "block"     // a block delta over W
	Trace     Kind = "trace"     // an execution trace inside a CPU window, so its samples carry times
	// Counters are the program's own counters (DYPER's application-specific
	// proflets), which the proflens agent serves: agent.Count, agent.Gauge.
	Counters Kind = "counters"
)

// Kinds are the kinds every net/http/pprof server serves, in the default
// priority order; Counters needs the agent.
var Kinds = []Kind{CPU, Goroutine, Heap, Mutex, Block, Trace}

// allKinds are the kinds ParseKinds reads.
var allKinds = append(slices.Clone(Kinds), Counters)

// ParseKinds reads a comma-separated list of kinds; its order is their
// priority, highest first. A trace needs cpu: a trace carries CPU samples
// only while the CPU profiler runs.
func ParseKinds(s string) ([]Kind, error) {
	var out []Kind
	for _, w := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(w))
		switch {
		case !slices.Contains(allKinds, k):
			return nil, fmt.Errorf("kinds=%s: %q is not a kind; want some of %s", s, k, joinKinds(allKinds))
		case slices.Contains(out, k):
			return nil, fmt.Errorf("kinds=%s: %s is listed twice", s, k)
		}
		out = append(out, k)
	}
	if slices.Contains(out, Trace) && !slices.Contains(out, CPU) {
		return nil, fmt.Errorf("kinds=%s: trace needs cpu, since a trace carries CPU samples only while the CPU profiler runs", s)
	}
	return out, nil
}

// isKind says whether k is a kind.
func isKind(k Kind) bool { return slices.Contains(Kinds, k) }

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}

// timed says whether a collection of k lasts a while and costs in
// proportion (cpu: samples; trace: events), so that its cost is measured
// and predicted per second on.
func (k Kind) timed() bool { return k == CPU || k == Trace }

// length returns how long a collection of k is on by default with windows
// of w: w for CPU windows and deltas, a little less for a trace (it starts
// with a CPU window and must end inside it), 0 for a snapshot.
func (k Kind) length(w time.Duration) time.Duration {
	switch k {
	case Goroutine, Counters:
		return 0
	case Trace:
		return max(w-traceMargin, minTrace)
	}
	return w
}

// traceMargin is how much shorter than its CPU window a trace window is at
// most; minTrace is the shortest trace window.
const (
	traceMargin = 100 * time.Millisecond
	minTrace    = 50 * time.Millisecond
)

// path returns the request of a collection of k that is on for d (whole
// seconds for CPU windows and deltas).
func (k Kind) path(d time.Duration) string {
	secs := max(int64(d/time.Second), 1)
	switch k {
	case CPU:
		return fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs)
	case Goroutine:
		return "/debug/pprof/goroutine"
	case Counters:
		return agent.CountersPath
	case Trace:
		return fmt.Sprintf("/debug/pprof/trace?seconds=%g", d.Seconds())
	}
	return fmt.Sprintf("/debug/pprof/%s?seconds=%d", k, secs)
}

// additive says whether k's counts add up over time (CPU time, allocations,
// contentions, trace samples), so that a share of the run projects onto the
// whole by its coverage; a goroutine snapshot counts what exists at one
// moment, so snapshots project by their mean.
func (k Kind) additive() bool { return k != Goroutine && k != Counters }
