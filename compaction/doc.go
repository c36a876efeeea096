// Package compaction implements ProfVis's localized structural compaction
// (seed 000, DESIGN.md §5): a granularity state per call-tree node, the
// take-over relation, and the compacted tree (View) as a pure function of a
// call tree and a state. The call tree is never modified.
//
// Pipeline stage: it consumes an analysis.Tree and produces Views, which the
// plotting package lays out and the kernel prints.
//
//   - NewState(t, g) is the uniform state; State.SetLevel sets the level of
//     the nodes whose full name matches a pattern (the `level` command).
//   - Compact(t, s, value) computes the View by the group rule: linear in
//     the tree times the name depth, plus sorting.
//   - View.Resolve(target) turns a TARGET — a handle, a path of displayed
//     names joined by " > ", or "all" (-1) — into a node index.
//   - Step(v, target, ±1) is ProfVis's expand/compact: it returns the new
//     state and view, recomputing only the part of the view the step can
//     change, or an error when the result breaks R1 or R2.
//   - View.Check finds the first R1/R2 violation; View.WriteText and
//     View.Doc/WriteJSON are the `view` and `export FILE.json` forms.
//
// Invariants of a View, checked by the tests on random trees: every
// call-tree node is a member of exactly one compacted node; the roots'
// totals sum to the profile's total (minus samples with empty stacks); a
// node's total is the sum of its seeds' (highest members') totals and its
// self is its total minus its children's; siblings have distinct names and
// are ordered by descending total, then name; View.Preorder lists every
// node once.
//
// Nodes are named by ids, indices into View.Nodes. Compact numbers them in
// pre-order. Step shares with the view before it every node it does not
// change, mostly under the same id: new nodes take the ids of dropped ones,
// and when fewer are made than dropped, the nodes with the highest ids move
// into the ids left over, so that ids stay 0..After-1; a node whose parent
// or children change is copied. The per-call-tree-node tables (the
// levels, and which compacted node each call-tree node is in) are kept in
// pages that states and views share, and a step copies only the pages it
// writes. So a step costs the part it recomputes plus a copy of a few
// arrays as long as the view (node addresses, handle lengths, the hash
// order), not a copy of every node or of the tree's tables. Everything runs
// on the calling goroutine.
//
// Handles are the shortest prefixes (at least four hex digits), unique in
// the view, of a hash of the node's name and of the call path where it
// starts (its first seed), so they are the same on every run and machine and
// a node keeps its handle across steps that do not remake it (but for a
// digit more or less as nodes with a like hash come and go).
//
// Views and states are immutable once made and may be shared; a View holds
// its State, which must not be modified afterwards.
package compaction
