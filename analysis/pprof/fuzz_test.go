package pprof

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzPprof(f *testing.F) {
	testprof.Fuzz(f, "pprof", "devirt.pprof", "cppbench.small.contention", "pprof-fuzz-7e3c9248")
}
