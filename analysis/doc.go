// Package analysis is the first stage of proflens: it holds the model that
// every supported format is read into (Profile, built by a Builder), splits
// frame names into name elements (Names), and builds the call tree (Tree)
// and its queries (Top, TreeRows, Info) that every later stage reads. A
// Profile and its Tree are immutable once built. A loaded profile is at
// functions; Profile.At derives it at lines, files or addresses from the
// frames its loader kept (granularity.go), as pprof's -lines, -files and
// -addresses.
//
// Formats live in packages of their own under analysis/ (pprof, folded,
// perf, hprof, dtrace, v8, chrome, speedscope, gotrace, jfr, firefox,
// macsample, callgrind). Each registers
// itself with RegisterFormat from init, as image/png registers with image;
// Load and Parse sniff the content and hand it to the format that takes it.
// A program imports the formats it reads, or analysis/formats for all of
// them. Formats import analysis and never each other; what several share
// is in analysis/internal (text, jsonprof, cpuprofile).
package analysis
