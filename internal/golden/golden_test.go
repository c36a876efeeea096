package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"abc", "abd", 2}, {"ab", "abc", 2}, {"", "x", 0}, {"same", "same", 4}} {
		if got := firstDiff([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("firstDiff(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestCheckEqual(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txt")
	if err := os.WriteFile(path, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, path, []byte("hello\n")) // fails the test if it reports a difference
}
