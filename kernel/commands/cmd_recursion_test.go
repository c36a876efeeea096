package commands

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestCollapseRecursionCommand: folding is part of the profile's tree that
// view, flame and top read; it keeps the levels, stays under a change of
// the standing filter, shows in info and in the notes, and off gives back
// the very outputs of before.
func TestCollapseRecursionCommand(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "rec.folded", "main;f;g;f;g;h 4\nmain;f;f;f 3\nmain;g 2\n")
	s := kernel.NewSession(dir, testTable())
	run := func(code string) *kernel.Recorder { t.Helper(); return mustRun(t, s, code) }
	run("load rec.folded as r\nlevel 9")
	const reads = "view\nflame\ntop n=0"
	before := machineForm(t, run(reads))
	out := run("collapse-recursion f").Bundles()[0]["text/plain"].(string)
	for _, want := range []string{"recursion folded: f; call-tree nodes 9 → 5", "main [9]", "  f [7]", "    g [4]", "      h [4]"} {
		if !strings.Contains(out, want) {
			t.Errorf("collapse-recursion f lacks %q:\n%s", want, out)
		}
	}
	folded := machineForm(t, run(reads))
	if folded == before {
		t.Error("view, flame and top read the same after collapse-recursion f")
	}
	run("filter hide=^h$\nfilter off")
	if got := machineForm(t, run(reads)); got != folded {
		t.Error("a change of the standing filter dropped the folding")
	}
	if info := run("info").Bundles()[0]["text/plain"].(string); !strings.Contains(info, "recursion folded  f") {
		t.Errorf("info does not list the folding:\n%s", info)
	}
	if note := run("top").Bundles()[0]["text/plain"].(string); !strings.Contains(note, "r (collapse-recursion f):") {
		t.Errorf("top's note does not name the folding:\n%s", note)
	}
	run("collapse-recursion off")
	if got := machineForm(t, run(reads)); got != before {
		t.Error("collapse-recursion off does not give back the outputs of before")
	}
	for _, tc := range []struct{ code, want string }{
		{"collapse-recursion all", "recursion folded: all; call-tree nodes 9 → 5"},
		{"collapse-recursion off\ncollapse-recursion f direct=true", "recursion folded: direct f; call-tree nodes 9 → 7"},
		{"collapse-recursion off\ncollapse-recursion 86f2", "recursion folded: main; call-tree nodes 9 → 9"},
	} {
		rec := run(tc.code)
		if out := rec.Bundles()[len(rec.Bundles())-1]["text/plain"].(string); !strings.Contains(out, tc.want) {
			t.Errorf("%s: lacks %q:\n%s", tc.code, tc.want, out)
		}
	}
	if _, err := RunForTest(t, s, "collapse-recursion nosuch"); err == nil || !strings.Contains(err.Error(), `no function or compacted node is named "nosuch"`) {
		t.Errorf("collapse-recursion nosuch: %v", err)
	}
}
