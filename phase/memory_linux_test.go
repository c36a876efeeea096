package phase

import (
	"errors"
	"math"
	"syscall"
	"testing"
)

// TestLimitsLoweredToMemory: a limit an option raises past what half of
// the machine's memory holds is lowered to that, and a run stopped by it
// says so; a limit below it is kept, and a run stopped by it does not.
// The machine's memory is checked against the kernel's own count
// (sysinfo), not /proc/meminfo.
func TestLimitsLoweredToMemory(t *testing.T) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		t.Skip(err)
	}
	if got, want := memory(), int64(si.Totalram)*int64(si.Unit); got != want {
		t.Fatalf("memory() = %d, want MemTotal %d", got, want)
	}
	half := memory() / 2 / cellBytes
	for _, tc := range []struct {
		option, max int
		lowered     bool
	}{
		{math.MaxInt, int(half), true},
		{int(half) - 1, int(half) - 1, false},
		{0, min(DefaultMaxCells, int(half)), half < DefaultMaxCells},
	} {
		limit := bound(tc.option, DefaultMaxCells, cellBytes)
		var le *LimitError
		if err := checkCells(2, limit, limit); limit != tc.max || !errors.As(err, &le) || le.Max != int64(tc.max) || le.Memory != tc.lowered {
			t.Errorf("option %d: limit %d, error %#v; want a limit of %d cells (lowered to the memory: %v)", tc.option, limit, err, tc.max, tc.lowered)
		}
	}
}
