package analysis

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites golden files instead of comparing: go test ./analysis/ -update
var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// checkGolden compares got with testdata/golden/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from golden:\n--- got\n%s--- want\n%s", name, got, want)
	}
}
