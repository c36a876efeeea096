package dtrace

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzDTrace(f *testing.F) {
	testprof.Fuzz(f, "dtrace", "inferno-java.txt", "inferno-stack-ustack.txt", "dtrace: description 'x' matched 2 probes\nCPU ID FUNCTION:NAME\n\n  a`b+0x1\n  dtrace: 3 drops on CPU 0\n  2\n", "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                1\n")
}
