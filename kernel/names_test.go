package kernel

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneDisplayName: every view shows a frame by the same name, without
// the directory all of the profile's paths share (here
// /Users/example/test_project/node_modules/, in a real Hermes trace);
// tooltips and JSON keep the full name.
func TestOneDisplayName(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("testdata", "hermes-multiple-frames.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, nil, "load "+path+" as h\ntop\ntree\nlevel 2\nview\nflame\nshow")
	if err != nil {
		t.Fatal(err)
	}
	const full, short = "/Users/example/test_project/node_modules/metro-runtime", "metro-runtime/src"
	b := rec.Bundles()
	for i, name := range []string{"top", "tree", "view", "flame", "show"} {
		bundle := b[len(b)-5+i]
		text, _ := bundle["text/plain"].(string)
		if !strings.Contains(text, short) || strings.Contains(text, full) {
			t.Errorf("%s text shows no %q, or the full %q:\n%s", name, short, full, text)
		}
		if svg, ok := bundle["image/svg+xml"].(string); ok && (!strings.Contains(svg, ">"+short) || !strings.Contains(svg, "<title>"+full)) {
			t.Errorf("%s picture: want labels %q and tooltips with the full name %q", name, short, full)
		}
	}
	top, _ := json.Marshal(b[len(b)-5]["application/json"])
	if !strings.Contains(string(top), `"name":"beta `+full+`/src/polyfills/require.js:54:12"`) {
		t.Errorf("top JSON does not give the full name: %s", top)
	}
}
