// Package blueprint implements the Profiling Blueprint of Bergel, Peña,
// Thorgrímsson and Huang (seed 004, DESIGN.md §8): a call graph drawn as
// boxes, each as tall as the time spent in it and as wide as the number of
// times it ran, callers above callees, in which a reader recognizes visual
// patterns.
//
// The paper's terms, and where they are:
//   - A box (Box, blueprint.go) is a method. By function (ByFunction, the
//     paper's graph and the default) it is a name of a compacted view: at
//     full names a function, at a coarser level the group the level names;
//     by context (ByContext) it is a node of the view, a call path. Its
//     height is its inclusive value counted once per stack (Total: a
//     recursive function's time is not counted twice), its width its call
//     count (Calls, drawn on a log scale). Edges (Edge) are the calls
//     between boxes with their counts; the drawing places each box under
//     one caller (by function, the one through which it takes the most
//     time), callees in the order they were first called when the
//     recording has time order, else heaviest first. Of (boxes.go, walk.go,
//     draw.go) makes them.
//   - The program's entry: the start-up chain above it (the loader's, the
//     C library's, the Go runtime's and the JVM's start-up frames, a table
//     in analysis, analysis.Tree.Startup) has no box; Blueprint.Startup
//     names it, and the picture draws it as one thin bar.
//   - Call counts (CallCounts, callcounts.go) come from the best source
//     the profile has, named by its analysis.CountSource: exact from the
//     entry events of an evented recording or from callgrind's calls=
//     lines; objects or contentions from a second value type that counts
//     (inclusive, counted on call paths, not entries); or entries
//     recovered from samples in time order by diffing consecutive stacks,
//     a lower bound, which the caller passes only when the user asks. A
//     profile with none gives ErrNoCounts. The steps and entries
//     (analysis.Steps, EntryCounts, FirstEntries) live in the model, which
//     avid reads too.
//   - The visual patterns A to F of the paper's Figure 2 (Patterns,
//     patterns.go): sequential calls, indirection, sporadic execution,
//     multiple execution, immediate value and recursion, each a rule on
//     the heights and widths of a box and the calls it makes, with
//     tolerances (PatternOptions), each found with the numbers it read
//     (Evidence). Without counts only B (on heights) and F are looked for.
//   - Recursion (Cycle): a function at its full name called while it is
//     already on the stack, directly or through others. Names that
//     compaction merged, placeholders ("[unknown]", "(below main)", bare
//     addresses: analysis.IsPlaceholder) and different functions of one
//     box are never recursion.
//   - Mutation (Mutations, mutations.go): the paper shades a method grey
//     when it modifies its receiver or arguments and yellow when it does
//     not. Profiles do not record it; a side file in avid's mapping syntax
//     (entities mutates and pure) does, and a box combines its members'.
//     Patterns G to I, which rest on mutation, are not looked for.
//
// Pipeline stage: it consumes a compaction.View of an analysis.Tree and
// the tree's counts, and produces a Blueprint and its Patterns, which
// plotting lays out and paints; plotting computes none of it.
//
// Invariants: by context, one box per view node outside the start-up
// chain; by function, one per name; a box's height is the value of the
// samples with it on the stack, once per stack; by function, a box's calls
// are all its function's entries (with its calls of itself), by context
// the entries into its node from outside it; counts of objects and
// contentions are counted once per stack, as heights, and never as calls
// back; every Cycle is a function found twice on one stack. The tests
// check widths and heights against oracles counting a recording's events
// and samples, cycles against a direct search of random stacks, counts
// against callgrind files, a real heap profile and a contention profile,
// and the rules on blueprints that show exactly one pattern each.
//
// Complexity: Of is linear in the call tree and the view, plus sorting
// callees and edges (and, by function, O(E log E) to place the boxes);
// Patterns is linear in the boxes, edges and cycles; CallCounts is linear
// in the call tree or the samples. A Blueprint is not changed once Of
// returns it.
package blueprint
