// Package compaction implements ProfVis's localized structural compaction
// (seed 000, DESIGN.md §5): it shows a call tree at a granularity chosen
// per node, merging the nodes that the paper's take-over relation joins.
//
// The algorithm. Every call-tree node n has a level g(n); its compacted
// name is the first g(n) elements of its full name ("lib2.Muscle" for
// lib2.Muscle.contract at level 2). The compacted tree is made top-down by
// the group rule (Compact, compact.go): below a virtual root over the call
// tree's roots, the call-tree children that a compacted node's members
// leave outside it are split into the connected components of "one
// compacted name is an element-wise prefix of the other"; each component
// seeds a child node named by its shortest name, which absorbs, again and
// again, every call-tree child of its members whose compacted name starts
// with that name. A node's total is the sum of its seeds' totals. On every
// state that ProfVis's interactions reach, this gives exactly the
// components of the paper's take-over rules 1-3 (the tests check both).
//
// ProfVis's interaction, expand or compact one node (Step, step.go), moves
// the levels of that node's members by one, so only the children of its
// parent that hold one of its seeds can change (local.go). The group rule
// runs again from their seeds alone, and a group that takes an old node's
// place takes its subtree too, or reads its members off the old node
// instead of testing names; splice.go builds the new view around the rest
// of the old one. A step whose result breaks R1 (a child coarser than its
// parent) or R2 (a node absorbing a name two elements finer) is refused
// (rules.go).
//
// Pipeline stage: it consumes an analysis.Tree and produces Views, which
// the plotting package lays out and the kernel prints.
//
//   - NewState(t, g) is the uniform state; State.SetLevel sets the level of
//     the nodes whose full name matches a pattern (the `level` command).
//   - Compact(t, s, value) computes the View: linear in the tree times the
//     name depth, plus sorting.
//   - View.Find(target) and FindRe(re) turn a TARGET (a handle, a path of
//     displayed names joined by " > ", a displayed name or a unique end of
//     one, or "all") into the nodes it names, or an error listing what it
//     matched (find.go); View.Resolve(target) into one node id.
//   - Step(v, target, ±1) returns the new state and view, or an error.
//   - View.Check, WriteText, Doc/WriteJSON, Elements and NewSince are what
//     the kernel and the pictures read.
//   - Fit(v, n, keep) chooses per-region levels so the view has at most n
//     nodes, expanding greedily by hidden self weight per added node (the
//     `fit` command); View.Named is the weight shown with its own name.
//   - NewSandwich(v, name) merges the callers and callees of every node of
//     one name (the `sandwich` command); View.Totals reads a view in another
//     value type (the `diff` command's sides).
//
// Invariants of a View, checked by the tests on random trees: every
// call-tree node is a member of exactly one compacted node; the roots'
// totals sum to the profile's total (less samples with empty stacks); a
// node's self is its total minus its children's; siblings have distinct
// names and go by descending total, then name; ids are 0..After-1.
//
// Nodes are named by ids, indices into View.Nodes; Compact numbers them in
// pre-order. A step shares with the view before it every node it does not
// change, and its tables of levels and of members' nodes page by page
// (paged.go), so it costs the part it recomputes plus a few arrays as long
// as the view, not the tree. Handles (handle.go) are short prefixes of a
// hash of a node's name and of the call path where it starts, the same on
// every run and machine. Views and states are immutable once made and may
// be shared; everything runs on the calling goroutine.
package compaction
