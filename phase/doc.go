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
//     interval a phase id, numbered by first appearance.
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
// Nothing here mutates the profile or the tree; results are plain values
// and deterministic for a given input.
package phase
