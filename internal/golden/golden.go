// Package golden compares test output with golden files under testdata/ and
// rewrites them when the tests run with -update:
//
//	go test ./... -update
//
// It is imported by tests only, so the -update flag exists in test binaries
// alone. Golden files are byte-exact: outputs are deterministic by design.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the repository-wide -update flag: rewrite golden files instead of
// comparing with them.
var Update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing")

// Check compares got with the file at path (relative to the test's package
// directory, usually under testdata/), or rewrites that file under -update.
// A difference is reported with both sizes and, for short text, both texts.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	if len(got)+len(want) < 4096 {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s(if the change is intended, run with -update)", path, got, want)
		return
	}
	t.Errorf("%s differs from the golden file (%d bytes, want %d; first difference at byte %d); if the change is intended, run with -update",
		path, len(got), len(want), firstDiff(got, want))
}

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
