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
//     averaged into at most MaxCells × MaxCells cells.
//   - Save, ReadSaved and Saved.Seed write and reuse labelled phase sets.
//   - Score and the baselines (OnePhase, EveryNew, Consecutive) measure a
//     segmentation against a known one (Truth from sample labels).
//
// Nothing here mutates the profile or the tree; results are plain values
// and deterministic for a given input.
package phase
