// Package blueprint implements the Profiling Blueprint of Bergel, Peña,
// Thorgrímsson and Huang (seed 004, DESIGN.md §8): a call graph drawn as
// boxes, each as tall as the time spent in it and as wide as the number of
// times it ran, callers above callees, in which a reader recognizes visual
// patterns.
//
// The paper's terms, and where they are:
//   - A box (Box, blueprint.go) is a method: here a node of a compacted
//     view, so the granularity the user chose decides what a box is. Its
//     height is its inclusive value (Total), its width its call count
//     (Calls, drawn on a log scale), its edges go to its callees in the
//     order they were first called when the recording has time order,
//     else heaviest first. Of (boxes.go) makes the boxes of a view.
//   - Call counts (CallCounts, callcounts.go) come from the best source
//     the profile has, named by its analysis.CountSource: exact from the
//     entry events of an evented recording or from callgrind's calls=
//     lines; objects or contentions from a second value type that counts
//     (inclusive, counted on call paths, not entries); or entries
//     recovered from samples in time order by diffing consecutive stacks,
//     a lower bound. A profile with none gives ErrNoCounts. The steps and
//     entries (analysis.Steps, EntryCounts, FirstEntries) live in the
//     model, which avid reads too.
//   - The visual patterns A to F of the paper's Figure 2 (Patterns,
//     patterns.go): sequential calls, indirection, sporadic execution,
//     multiple execution, immediate value and recursion, each a rule on
//     the heights and widths of a box and its callees with tolerances
//     (PatternOptions), each found with the numbers it read (Evidence).
//   - Mutation (Mutations, mutations.go): the paper shades a method grey
//     when it modifies its receiver or arguments and yellow when it does
//     not. Profiles do not record it; a side file in avid's mapping syntax
//     (entities mutates and pure) does, and a box combines its members'.
//     Patterns G to I, which rest on mutation, are not looked for.
//
// Recursion: a box whose ancestor has its name is a call back into that
// ancestor (Box.Recursive, the paper's crossing edge); a function calling
// itself inside one compacted node is counted in Box.Recursion.
//
// Pipeline stage: it consumes a compaction.View of an analysis.Tree and
// the tree's counts, and produces a Blueprint and its Patterns, which
// plotting lays out and paints; plotting computes none of it.
//
// Invariants: one box per node of the view, in pre-order, heights the
// nodes' totals; a box's calls are the counts of its members entered from
// outside it, so a compacted group called once is one call wide however
// many calls it holds inside; counts of objects and contentions never count
// as recursion; F is reported once per recursion, not once per level. The
// tests check counts against callgrind files, a real heap profile and a
// contention profile, the rules on blueprints that show exactly one
// pattern each, and MarkRecursion against a direct search on random trees.
//
// Complexity: Of is linear in the view and the call tree, plus sorting
// callees by first call; MarkRecursion is linear in the boxes; Patterns is
// linear in the boxes times their depth; CallCounts is linear in the call
// tree or the samples. A Blueprint is not changed once Of returns it.
package blueprint
