package analysis

import (
	"path/filepath"
	"testing"

	"github.com/proflens/proflens/internal/golden"
)

// checkGolden compares got with testdata/golden/name, or rewrites it under
// -update (go test ./analysis/ -update).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}
