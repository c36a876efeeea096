package agent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// CountersPath is where the agent answers the program's own counters
// (DYPER's application-specific proflets), as JSON: Counters.
const CountersPath = "/debug/proflens/counters"

// Counters is what the agent answers at CountersPath.
type Counters struct {
	Uptime   float64        `json:"uptime_seconds"`
	Counters []CounterValue `json:"counters"` // in the order registered
}

// CounterValue is one counter's reading.
type CounterValue struct {
	Name  string `json:"name"`
	Gauge bool   `json:"gauge"` // a level (a queue's length); else a count that only grows (requests served)
	Value int64  `json:"value"`
}

// counter is a registered counter.
type counter struct {
	name  string
	gauge bool
	read  func() int64
}

// priorCounters is the predicted cost of reading the counters before it
// has been measured (seconds).
const priorCounters = 1e-4

// Count registers a counter that only grows (requests served, bytes
// written), read by calling read, which must be cheap and safe to call
// from another goroutine. The counters are sampled within the same budget
// as the profiles and join the live series as value types.
func (a *Agent) Count(name string, read func() int64) error { return a.register(name, false, read) }

// Gauge registers a level (a queue's length, connections open), read by
// calling read, as Count does.
func (a *Agent) Gauge(name string, read func() int64) error { return a.register(name, true, read) }

func (a *Agent) register(name string, gauge bool, read func() int64) error {
	if name == "" || strings.ContainsAny(name, " \t\n=,") || read == nil {
		return fmt.Errorf("agent: counter %q: want a name without spaces, '=' or ',' and a function to read it", name)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if slices.ContainsFunc(a.counters, func(c counter) bool { return c.name == name }) {
		return fmt.Errorf("agent: counter %q is registered already", name)
	}
	a.counters = append(a.counters, counter{name, gauge, read})
	return nil
}

// serveCounters answers the counters' values, charged like a snapshot.
func (a *Agent) serveCounters(w http.ResponseWriter, r *http.Request) {
	predicted := 2 * a.lastOr("counters", priorCounters)
	if !a.reserve(w, "reading of the counters", predicted) {
		return
	}
	a.mu.Lock()
	cs := slices.Clone(a.counters)
	a.mu.Unlock()
	var b buffered
	cost := onThread(false, func() {
		out := Counters{Uptime: time.Since(a.start).Seconds(), Counters: []CounterValue{}}
		for _, c := range cs {
			out.Counters = append(out.Counters, CounterValue{Name: c.name, Gauge: c.gauge, Value: c.read()})
		}
		b.Header().Set("Content-Type", "application/json")
		json.NewEncoder(&b).Encode(out)
	})
	a.settle("counters", predicted, cost, cost)
	b.send(w, cost)
}
