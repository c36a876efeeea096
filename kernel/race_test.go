//go:build race

package kernel

// raceEnabled: the test binary, and so the demo target it runs, is
// race-instrumented, several times slower.
const raceEnabled = true
