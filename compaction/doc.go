// Package compaction implements ProfVis's localized structural compaction
// (seed 000, DESIGN.md §5): a granularity state per call-tree node, the
// take-over relation, and the compacted tree (View) as a pure function of a
// call tree and a state. The call tree is never modified.
package compaction
