package pyinstrument

import (
	"testing"

	"github.com/proflens/proflens/analysis/internal/testprof"
)

func FuzzPyinstrument(f *testing.F) {
	testprof.Fuzz(f, "pyinstrument", "small.pyisession", "small-render.json",
		`{"session": {"duration": 1}, "frame_tree": {"identifier": "a\u0000b\u00001", "time": 1, "children": [{"identifier": "[self]", "time": 0.5, "children": []}]}}`)
}
