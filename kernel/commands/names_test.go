package commands

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneDisplayName: every view shows a frame by the same name, without
// the directory all of the profile's paths share (here
// /Users/example/test_project/node_modules/, in a real Hermes trace); a
// compacted node's tooltip names it by its package, as its label does, and
// top's JSON keeps the frame's full name; a path of the names shown names a
// node.
func TestOneDisplayName(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("testdata", "hermes-multiple-frames.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, nil, "set pictures=svg\nload "+path+" as h\ntop\ntree\nlevel 2\nview\nflame\nshow\n"+
		`expand "[root] > metro-runtime/src"`)
	if err != nil {
		t.Fatal(err)
	}
	const full, short = "/Users/example/test_project/node_modules/metro-runtime", "metro-runtime/src"
	b := rec.Bundles()
	for i, name := range []string{"top", "tree", "view", "flame", "show"} {
		bundle := b[len(b)-6+i]
		text, _ := bundle["text/plain"].(string)
		if !strings.Contains(text, short) || strings.Contains(text, full) {
			t.Errorf("%s text shows no %q, or the full %q:\n%s", name, short, full, text)
		}
		if svg, ok := bundle["image/svg+xml"].(string); ok && (!strings.Contains(svg, ">"+short) || !strings.Contains(svg, "<title>"+short) || strings.Contains(svg, full)) {
			t.Errorf("%s picture: want labels and tooltips %q, and no path %q", name, short, full)
		}
	}
	top, _ := json.Marshal(b[len(b)-6]["application/json"])
	if text := b[len(b)-1]["text/plain"].(string); !strings.Contains(text, "metro-runtime/src/polyfills") {
		t.Errorf("expand by the names shown: want metro-runtime/src/polyfills in\n%s", text)
	}
	if !strings.Contains(string(top), `"name":"beta `+full+`/src/polyfills/require.js:54:12"`) {
		t.Errorf("top JSON does not give the full name: %s", top)
	}
}

// TestFlameFullNames: right after load, flame draws full names, as top
// and tree show them (a labelled Go profile of parca's); once a level is
// set on the profile it draws the compacted tree that view shows. Its
// tooltips offer expand and compact only on the profile's own state.
func TestFlameFullNames(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "analysis", "pprof", "testdata", "labels", "profile-with-labels.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, nil, "set pictures=svg\nload "+path+" as pl\nflame\nfilter thread=2764734\nflame\nlevel 1\nflame")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	for i, c := range []struct {
		at         int
		has, hasnt string
	}{
		{1, "runtime.goexit [", "\nruntime ["},
		{2, "runtime.goexit [", "\nruntime ["},
		{4, "\nruntime [", "runtime.goexit ["},
	} {
		text := "\n" + b[c.at]["text/plain"].(string)
		if !strings.Contains(text, c.has) || strings.Contains(text, c.hasnt) {
			t.Errorf("flame %d: want %q and no %q in\n%.600s", i, c.has, c.hasnt, text)
		}
		svg := b[c.at]["image/svg+xml"].(string)
		if offers := strings.Contains(svg, "expand pl "); offers != (i == 2) {
			t.Errorf("flame %d: tooltips offer expand: %v", i, offers)
		}
	}
}

// TestUniformSteps: on a labelled Go CPU profile (parca's), level 2, expand
// all, compact all is taken and gives back level 2's view (it was refused:
// "main would be coarser than its parent main.main"); level 99 shows full
// names with no R1 note (one was printed: a function is never coarser than
// its closure).
func TestUniformSteps(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "analysis", "pprof", "testdata", "labels", "profile-with-labels.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, nil, "load "+path+" as pl\nlevel 2\nexpand all\ncompact all\nlevel 99\ncompact all\nexpand all")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	doc := func(i int) string {
		j, _ := json.Marshal(b[i]["application/json"])
		return string(j)
	}
	if doc(1) != doc(3) || doc(1) == doc(2) {
		t.Errorf("level 2, expand all, compact all: the view is not level 2's again")
	}
	if doc(4) != doc(6) || doc(4) == doc(5) {
		t.Errorf("level 99, compact all, expand all: the view is not level 99's again")
	}
	// compact all after level 99 leaves every name one element short, and
	// may make a node absorb one shortened less (runtime absorbs
	// runtime/internal/atomic.(*Uint32)): it is taken, with a note.
	for _, i := range []int{1, 2, 3, 4, 6} {
		if text := b[i]["text/plain"].(string); strings.Contains(text, "note:") {
			t.Errorf("bundle %d has a note:\n%.300s", i, text)
		}
	}
	if text := b[5]["text/plain"].(string); !strings.HasPrefix(text, "note: this view breaks R2: runtime absorbs") {
		t.Errorf("compact all after level 99: want a note on R2, got\n%.300s", text)
	}
}
