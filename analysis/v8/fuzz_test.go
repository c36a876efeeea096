package v8

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzV8(f *testing.F) {
	testprof.Fuzz(f, "v8", "chrome65-simple.cpuprofile", "node10-example.cpuprofile", placementProfile, heapProfile)
}
