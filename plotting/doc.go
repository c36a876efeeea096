// Package plotting turns analysis results into pictures: layouts (pure data
// to geometry, table-tested) and painters (geometry to deterministic SVG
// through an io.Writer), plus gonum/plot charts. Only this package imports
// gonum.org/v1/plot.
//
// Pictures of a compacted tree (compaction.View) go through three steps:
//
//   - select: choose which compacted nodes to draw within the budget
//     (DefaultMaxNodes nodes, DefaultMaxBytes of SVG), heaviest first, and
//     fold the rest into one "+N more" mark per parent (Pic, Item). The
//     bottom-up graph of a flame graph is built lazily here, from the
//     view's self weights walked up through the compacted ancestors.
//   - layout: Flame (an icicle: width ∝ total), Radial (ProfVis's
//     semi-circular fan: children share their parent's angle on the next
//     ring; the rings have equal areas, so a sector's area is proportional
//     to its weight at every depth, at the price of thinner outer rings) and
//     Tidy (a top-down tree, leaves in slots, parents centred over their
//     children, discs with areas ∝ total). Pure functions of a Pic.
//   - paint: SVG with fixed float precision, ids from handles, no
//     timestamps, a <title> tooltip per node (name, totals with units and
//     percent, members, handle, and the command lines the caller offers
//     for the handle: plotting knows no command syntax), labels only where
//     they fit (a monospaced font makes that exact).
//
// Each kind of picture is one Kind in the table kinds (kind.go): its name,
// title, default order, budget rule and painter. A kind's layout and painter
// live in one file (flame.go, radial.go, tidy.go); painters write through a
// canvas (paint.go). Adding a kind is a new file and one entry in the table.
//
// Colours follow structural closeness and depend only on names, so a
// package looks the same in every profile of a program (colour.go has the
// rule): a top-level name element (package, module) takes a place on the
// colour wheel from hashes of its name, the packages of one organisation or
// module side by side; two names of one profile that want the same place
// are told apart by moving all but the first to the nearest free place;
// second elements (classes) take shades of their package's hue, third
// elements a lightness nudge. Draw is the entry point; the same view and
// options give the same bytes on every run.
package plotting
