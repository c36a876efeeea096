package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestFindTargets runs the commands that take a TARGET on a real V8
// profile (ponder, see compaction/testdata/level1/README.md) with ends of
// names and re=, and checks their errors word for word: one resolver
// (compaction.View.Find) serves them all.
func TestFindTargets(t *testing.T) {
	path, err := filepath.Abs("../../compaction/testdata/level1/ponder.cpuprofile.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := RunForTest(t, s, "load "+path+" as p"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code string
		want string // a line of the answer, or the error's start
	}{
		{`sandwich p "wrappers.js prepare" n=1`, "target  better-sqlite3/lib/methods/wrappers.js prepare:4:35"},
		{"sandwich p re=wrappers n=1", "target  better-sqlite3/lib/methods/wrappers.js prepare:4:35"},
		{"sandwich p parseJSONFromBytes n=1", "target  node:internal/deps/undici/undici parseJSONFromBytes:4746:32"},
		{"sandwich p hashes n=1", "target  @noble/hashes"},
		{"flame p root=parseJSONFromBytes", "p · top-down: 5 nodes drawn\nnode:internal/deps/undici/undici parseJSONFromBytes:4746:32 [976.64ms]"},
		{"flame p root=re=parseJSONFrom", "\nnode:internal/deps/undici/undici parseJSONFromBytes:4746:32 [976.64ms]"},
		{"sandwich p prepare", `sandwich: "prepare" matches 2 names: "packages/core/dist/bin/ponder.js db.prepare:886:16" (6f76), ` +
			`"better-sqlite3/lib/methods/wrappers.js prepare:4:35" (2d2e); give more of the name, a handle, or re=REGEX`},
		{"expand p hashes", `expand: "hashes" names 2 compacted nodes: "packages > viem > @noble/hashes" (3e03), ` +
			`"node:internal > runMicrotasks > packages > viem > @noble/hashes" (75e1); give a handle or a path`},
		{"expand p re=nothing.here", `expand: no displayed name matches re=nothing.here (run view to list the names)`},
		{"compact p xyzzy", `compact: no compacted node has handle or name "xyzzy", nor a name ending with it (run view to list the handles)`},
		{"expand p kysely re=kysely", "expand: give TARGET or re=, not both"},
		{"flame p root=re=(", "flame: re=( is not a regular expression"},
	} {
		rec, err := RunForTest(t, s, tc.code)
		got := ""
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "UsageError: ")
		} else {
			got = rec.Text()
		}
		if !strings.Contains(got, tc.want) || err != nil && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n%s\nwant %s", tc.code, got, tc.want)
		}
	}
}
