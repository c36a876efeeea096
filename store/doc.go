// Package store reads profiles from continuous-profiling stores, Grafana
// Pyroscope and Parca, over their own query APIs, for the kernel's
// `load pyroscope://HOST:PORT/QUERY` and `load parca://…`. It sits beside
// the loaders of package analysis: it consumes a URL, a time range and an
// optional step, asks the store for the merge of the matching profiles in
// pprof (one merge for the range, or one per step window), decodes each
// with analysis, and produces one analysis.Profile, or a series of one
// interval per step that phases and the other series commands read like a
// loaded series. It also lists what a store holds (Catalog: profile types,
// label names and their values) for discovery and completion.
//
// Both stores speak protocol buffers over HTTP: Pyroscope the Connect
// protocol (unary POST, application/proto both ways), Parca gRPC-Web
// (a 5-byte frame around each message, trailers in a last frame). The few
// messages are encoded and decoded by hand (wire.go) rather than imported:
// Pyroscope's server is AGPL-3.0, Parca's Go API pins an old gRPC, and a
// client of a handful of small messages is simpler than either dependency.
//
// Invariants: every request has a deadline (Options.Timeout) and ends with
// the caller's context; no response is read past the bytes still allowed
// (Options.Limit over all steps) and no model past analysis.Limits; a store
// that fails part way through a series leaves the steps already fetched
// with the caller (Fetch returns them with the error). The package keeps
// no state between calls.
package store
