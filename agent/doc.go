// Package agent serves a Go program's profiling endpoints within an
// overhead budget: DYPER's in-process part (seed 002, DESIGN.md §7). A
// service imports it and calls Start(addr, budget); the agent serves the
// paths and parameters of net/http/pprof (/debug/pprof/profile, trace,
// heap, allocs, goroutine, mutex, block, threadcreate, cmdline, symbol and
// the index), so every pprof client works with it, and proflens's attach
// recognises it by /debug/proflens/agent, which answers its Status.
//
// The budget is the program's slowdown: the extra CPU time and the
// stop-the-world pauses that profiling costs it, as a share of its run
// time. The agent keeps an account: credit accrues at the budget's rate
// (0.01 for 1%: ten milliseconds per second) up to a minute's worth, and
// every collection is paid for before it starts, at its predicted cost,
// then settled at its measured cost. A collection the credit cannot pay for
// is refused: 429 with Retry-After when the credit will be enough later,
// 403 when the collection costs more than a minute of budget. So the cost
// accounted since Start never exceeds budget × uptime, and over any stretch
// of time t it never exceeds budget × (t + one minute), unless a
// collection costs more than predicted (the excess is settled, and later
// collections wait until it is paid).
//
// What it measures, per collection, from inside the process:
//   - snapshots (goroutine, heap, allocs, mutex, block, threadcreate, and
//     their ?seconds= deltas): the CPU time of the handler's own thread
//     (locked to it while it runs; wall time where the system has no
//     thread clock) plus the stop-the-world pauses that happened meanwhile,
//     read from runtime/metrics (/sched/pauses/total/other:seconds; GC
//     pauses too when ?gc=1 asks for a collection);
//   - CPU profile windows: the 100 Hz signal handler cannot be timed, so
//     each sample is charged PerSample; the samples are bounded by the
//     process's CPU time during the window (getrusage), at 100 per second;
//     plus the final encoding, timed (wall time, charged at the best pace
//     per byte seen so far: on a busy machine most of a wall time is
//     waiting for a CPU), and the pauses;
//   - execution-trace windows: each byte of trace is charged PerTraceByte
//     (the tracer's cost is spread over every goroutine that emits events);
//     plus stopping the trace, timed and paced the same, and the pauses.
//
// Predictions: a CPU window's bound (100 samples per second per CPU), a
// trace window's bytes at the last rate seen (one core's worth before the
// first), a snapshot's last cost, doubled; a goroutine snapshot grows with
// the goroutine count (runtime/metrics /sched/goroutines:goroutines).
// Every answer carries its cost in the header Proflens-Cost (seconds).
//
// The agent imports nothing of proflens (deps_test.go states it). It owns
// one goroutine, the HTTP server's, which Close stops.
package agent
