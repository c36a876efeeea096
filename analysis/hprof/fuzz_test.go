package hprof

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzHprof(f *testing.F) {
	testprof.Fuzz(f, "hprof", "basex-java.hprof.txt", "TRACE 1:\n\ta.b(c.java:1)\nCPU SAMPLES BEGIN (total = 1) x\n 1 1% 1% 1 1 a.b\nCPU SAMPLES END\n")
}
