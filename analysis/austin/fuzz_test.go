package austin

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzAustin(f *testing.F) {
	testprof.Fuzz(f, "austin", "wall.austin", "full-alt.austin", "P1;T1;a.py:f;L2;b.py:g:3 10\n")
}
