package formats

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

// FuzzAuto goes through gzip and sniffing too.
func FuzzAuto(f *testing.F) {
	testprof.Fuzz(f, "", "../pprof/testdata/devirt.pprof", "../hprof/testdata/basex-java.hprof.txt",
		"../perf/testdata/perf-dd-stacks-01.txt", "../folded/testdata/perf-dd-stacks-01-collapsed-pid.txt")
}
