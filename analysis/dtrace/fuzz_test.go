package dtrace

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzDTrace(f *testing.F) {
	testprof.Fuzz(f, "dtrace", "CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s \n\n\n              genunix`vn_free+0x9a\n              unix`sys_syscall+0x17a\n                1\n")
}
