// Package phase detects program phases over time with JIVE's method
// (seed 003, DESIGN.md §8). It sits between analysis (which gives it a
// call tree of time-ordered samples, or a series of profiles) and plotting
// (which draws its results):
//
//   - Build cuts a profile into intervals and counts, per interval, the
//     samples of each dimension (Dims: the compacted names of the current
//     view, chosen by the caller); Vectors stores them sparsely.
//   - Detect runs the windowed detector with ω, ε and δ, the empty phase 0
//     and JIVE's colour sequence (Hue, Color); a Result assigns every
//     interval a phase id, numbered by first appearance. Sampled data are
//     noisy where the paper's exact counts were not: Spread measures how
//     many names a recording's samples spread over, DefaultInterval
//     chooses intervals that hold enough samples for it, Params.Spread
//     corrects the cosines for sampling noise (noise.go), and Detect
//     settles what the windows cannot tell (blips, transitions, returns
//     under a new id, late switches: settle.go) unless Params.Strict.
//   - NewSimilarity computes the matrix of window-vector dot products,
//     averaged into at most MaxCells × MaxCells cells; Coarsen merges a
//     long run's intervals for drawing its timeline.
//   - Save, ReadSaved and Saved.Seed write and reuse labelled phase sets.
//   - Score and the baselines (OnePhase, EveryNew, Consecutive) measure a
//     segmentation against a known one (Truth from sample labels).
//
// Memory is bounded whatever the options say: Build checks the number of
// intervals (Options.MaxIntervals), Detect, Saved.Seed and NewSimilarity
// the cells of their dense vectors (Params.MaxCells, and its argument),
// ReadSaved the bytes it reads, each before allocating; past a limit they
// return a *LimitError saying what would fit. The long loops take a
// context and look at it about every millisecond of work. Parameters that
// are not numbers in range are errors, never panics.
//
// Dense dot products (window and phase norms, the similarity cells, the
// consecutive baseline) use gonum's floats.Dot, which sums in four SSE2
// lanes: at 1M intervals × 200 names it takes 0.75× the CPU time of the
// similarity matrix's scalar loop and 0.80× that of the baseline, the same
// on the demo. Three parts stay hand-written. The current phase's test
// (cosine) sums P·W and W·W in one loop: with floats.Dot the demo's Detect
// (a dozen names) takes 1.10× the CPU time, the call costing more than the
// loop, though 1M intervals × 200 names take 0.82×. The windows, phase
// sums and inverted index are sparse updates, which gonum has no operation
// for. The adjusted Rand index keeps a sparse contingency table (maps): a
// dense mat.Dense summed with floats takes 0.72× the CPU time on the demo
// and 0.87× at 1M intervals, but its cells are labels × labels, and ARI
// also compares two detections (AVID's thinned recording with the full
// one): at 1M intervals 9,610 phases each, 92M cells (740 MB), where the
// maps hold the pairs that occur (1.7 MB). Normalization divides by the
// norm rather than multiplying by its inverse, which would change the last
// bits of the weights a saved set prints.
//
// Nothing here mutates the profile or the tree; results are plain values
// and deterministic for a given input.
package phase
