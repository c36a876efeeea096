//go:build race

package commands

// raceEnabled: the test binary, and so the demo target it runs, is
// race-instrumented, several times slower.
const raceEnabled = true
