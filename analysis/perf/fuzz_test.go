package perf

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzPerf(f *testing.F) {
	testprof.Fuzz(f, "perf", "perf-dd-stacks-01.txt", "perf-java-stacks-02.txt")
}
