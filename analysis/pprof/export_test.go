package pprof

import "github.com/proflens/proflens/analysis"

// Decode runs the fast decoder on uncompressed data, for the external
// benchmarks: ok is false when it declines.
func Decode(data []byte) (ok bool, err error) {
	_, ok, err = decode(&analysis.Input{Name: "bench", Data: data})
	return ok, err
}
