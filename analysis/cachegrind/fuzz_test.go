package cachegrind

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzCachegrind(f *testing.F) {
	testprof.Fuzz(f, "cachegrind", "small.cachegrind", "wrapped.cachegrind", "events: Ir\nfl=a\nfn=f\n1 2\nsummary: 2\n")
}
