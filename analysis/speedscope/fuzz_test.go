package speedscope

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzSpeedscope(f *testing.F) {
	testprof.Fuzz(f, "speedscope", "speedscope-two-sampled.json", "speedscope-evented.json", "speedscope-invalid-incomplete-trace.json")
}
