package hprof

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzHprof(f *testing.F) {
	testprof.Fuzz(f, "hprof", "basex-java.hprof.txt", "htsjdk-cpu-times.hprof.txt",
		"TRACE 1:\n\ta.b(c.java:1)\nCPU TIME (ms) BEGIN (total = 5) x\n 1 100.00% 100.00% 7 1 a.b\nCPU TIME (ms) END\n", "TRACE 1:\n\ta.b(c.java:1)\nCPU SAMPLES BEGIN (total = 1) x\n 1 1% 1% 1 1 a.b\nCPU SAMPLES END\n")
}
