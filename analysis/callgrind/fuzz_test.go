package callgrind

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzCallgrind(f *testing.F) {
	testprof.Fuzz(f, "callgrind", specExample, "prog.c",
		"events: Ir\nfn=main\n1 10\ncfn=f\ncalls=1 1\n1 100\nfn=f\n1 30\ncfn=f'2\ncalls=2 1\n1 70\nfn=f'2\n1 70\ncfn=f'2\ncalls=5 1\n1 200\n",
		"events: Ir\nfn=main\n1 1\ncfn=a\ncalls=2 1\n1 60\nfn=a\n1 20\ncfn=b\ncalls=3 1\n1 50\nfn=b\n1 32\ncfn=a\ncalls=1 1\n1 40\n")
}
