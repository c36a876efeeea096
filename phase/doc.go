// Package phase detects program phases over time with JIVE's method
// (seed 003, DESIGN.md §8): intervals of time-ordered samples, interval
// vectors indexed by compacted names, the windowed detector with thresholds
// ε and δ, the similarity matrix, phase colours and saved, labelled phase
// sets.
package phase
