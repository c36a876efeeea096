package live

import "time"

// FaultKind says what went wrong with a request, which decides what the
// collection does next (see Run).
type FaultKind int

const (
	FaultDown     FaultKind = iota // no connection, or it broke: the target may have died
	FaultSlow                      // no whole answer in time
	FaultServer                    // an error status (500: "cpu profiling already in use", …)
	FaultNotPprof                  // not an answer a pprof server gives (404, not a profile)
	FaultRefused                   // the agent refused for its budget; retry after RetryAfter
	FaultNever                     // the agent refused: the collection never fits its budget
)

// Fault is a failed collection.
type Fault struct {
	Kind       FaultKind
	Status     int // HTTP status, when there was one
	Msg        string
	RetryAfter time.Duration // FaultRefused
}

func (f *Fault) Error() string { return f.Msg }
