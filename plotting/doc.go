// Package plotting turns analysis results into pictures: layouts (pure data
// to geometry, table-tested) and painters (geometry to deterministic SVG
// through an io.Writer), plus gonum/plot charts. Only this package imports
// gonum.org/v1/plot.
package plotting
