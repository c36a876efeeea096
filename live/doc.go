// Package live collects profiles from a running Go program within an
// overhead budget: DYPER (seed 002, DESIGN.md §7) over net/http/pprof. It
// sits beside analysis: it reads what a target serves (a plain
// net/http/pprof server, or the proflens agent, which measures its own
// cost) into analysis profiles, one per window, which the kernel turns into
// a series that grows as windows arrive. It imports the agent (for its
// status and cost header), analysis and the two formats it reads, and
// nothing of the later stages.
//
// Kinds are DYPER's proflets: cpu (CPU profile windows), goroutine
// (snapshots), heap, mutex and block (deltas over a window), trace
// (execution traces inside CPU windows, whose samples carry times); their
// order is their priority.
//
// The budget is the target's slowdown: the CPU time and pause time that
// profiling costs it, as a share of the time attached. The governor keeps
// an account per kind. The budget is shared among the kinds by weighted
// max-min fairness (weights 1, 1/2, 1/3, … in priority order; each kind
// needs what one collection is expected to cost per window of time; what
// the needs leave is shared by weight too), credit accrues at each kind's
// share, and a collection starts only when its kind's credit pays its
// reservation: three times its costliest recent collection, twice a
// pessimistic prior before the first (a CPU window at its bound, every CPU
// of the target sampled for the whole window). When it ends, the
// reservation is replaced by its measured cost. So:
//   - guaranteed: the schedule (no collection starts unpaid) and the cost
//     accounted, which never exceeds budget × time attached, reservations in
//     flight included. A collection can cost more than it reserved (the
//     target got much busier); its kind then waits until its credit is
//     back, and Run ends only once the account is within the budget again
//     (Status.Overruns counts them);
//   - measured: the cost of each collection, by the agent from inside (its
//     Proflens-Cost header: thread CPU time, runtime/metrics pauses,
//     samples bounded by process CPU); for a plain server, from what each
//     answer holds (its bytes, samples, goroutines, trace bytes) at fixed
//     per-unit costs (see outsideCost), since answer times on a busy
//     machine are mostly waiting;
//   - estimated: the target's slowdown (Status.EstimatedSlowdown: the cost
//     per second of the target's own CPU time when it keeps more than a
//     core busy), and the projections.
//
// Projection onto the whole run, as DYPER projects counts from its short
// instrumentation windows: a kind whose counts add up over time (CPU time,
// allocations, contention delay, trace samples) was observed during a share
// of the time attached (its seconds on over the time attached), so its
// total over the run is what its windows saw divided by that share; a
// goroutine snapshot counts what exists at one moment, so the run's figure
// is the mean of its snapshots (Status.Projected).
//
// Windows are placed on proflens's monotonic clock, never the target's: a
// jump of the target's clock is noted, and moves nothing. Faults and what
// Run does about them are listed on Run.
//
// BenchmarkOverhead runs the demo target through a fixed amount of work
// unprofiled, attached at 10%, 1% and 0.1%, and under back-to-back 10 s
// CPU profiles, and reports each slowdown (the target's extra CPU time as a
// share of its run time) beside the cost accounted and the noise between
// two unprofiled runs.
//
// Goroutines: Run's caller owns Run's loop; each collection runs on a
// goroutine of its own that only sends its result back, and Run returns
// after all of them have.
package live
