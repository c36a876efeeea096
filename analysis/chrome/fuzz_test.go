package chrome

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzChrome(f *testing.F) {
	testprof.Fuzz(f, "chrome", "chrome141-no-arg-data.json", twoThreads, spanTrace)
}
