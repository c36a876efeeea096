// Package analysis is the first stage of proflens: it reads profiles of every
// supported format into one model (Profile), splits frame names into name
// elements (Names), and builds the call tree (Tree) that every later stage
// reads. A Profile and its Tree are immutable once built.
//
// Only this package imports github.com/google/pprof/profile.
package analysis
