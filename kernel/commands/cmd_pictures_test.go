package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
	"github.com/proflens/proflens/plotting"
)

func TestPictureBundles(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 99\nshow\nshow layout=tree\nflame toy order=weight\nflame inverted=true\n"+
		`flame root="lib1.Whale.breath > lib1.Mammal.inhale > lib2.Lung.inhale > lib2.Muscle.stop"`)
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	pics := b[len(b)-5:]
	for i, want := range []string{"radial view", "· tree ·", "icicle", "bottom-up icicle", "icicle"} {
		svg, _ := kerneltest.SVG(pics[i])
		html, _ := pics[i]["text/html"].(string)
		text, _ := pics[i]["text/plain"].(string)
		if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, want) {
			t.Errorf("picture %d: image/svg+xml does not start with <svg or lacks %q:\n%.200s", i, want, svg)
		}
		if html != kernel.PictureHTML([]byte(svg), text) {
			t.Errorf("picture %d: text/html is not the picture's <img>:\n%.200s", i, html)
		}
		if !strings.Contains(text, "nodes drawn") {
			t.Errorf("picture %d: text/plain = %q, want the text tree", i, text)
		}
		if !strings.Contains(svg, "expand toy ") {
			t.Errorf("picture %d: no tooltip with the expand command", i)
		}
	}
	// The zoomed flame graph draws lib2.Muscle.stop's subtree only: 2 of 6 samples.
	zoom := pics[4]["text/plain"].(string)
	if strings.Contains(zoom, "contract") || !strings.Contains(zoom, "lib2.Muscle.stop [2 samples] 33.3%") {
		t.Errorf("flame root=… text =\n%s\nwant lib2.Muscle.stop's subtree", zoom)
	}
	// The picture agrees with plotting.Draw on the same view.
	want, err := plotting.Draw(viewOf(t, s.Get("toy")), plotting.Options{Layout: plotting.LayoutFlame, Inverted: true,
		Profile: "toy", Commands: stepCommands("toy"), More: "maxnodes=N draws more"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := kerneltest.SVG(pics[3]); got != string(want.SVG) {
		t.Errorf("flame inverted=true differs from plotting.Draw")
	}
}

func TestExportSVG(t *testing.T) {
	dir := t.TempDir()
	s := kernel.NewSession(dir, testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nflame\nexport toy toy.svg")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "toy.svg"))
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	if svg, _ := kerneltest.SVG(b[len(b)-1]); !bytes.Equal(got, []byte(svg)) {
		t.Errorf("toy.svg differs from the last picture")
	}
}

// TestPictureMaxNodes: maxnodes= reaches the picture's budget, and its
// fold marks name the option in their tooltips.
func TestPictureMaxNodes(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := RunForTest(t, s, "load demo:profvis-toy as toy\nlevel 99\nflame maxnodes=4")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	text, _ := b[len(b)-1]["text/plain"].(string)
	svg, _ := kerneltest.SVG(b[len(b)-1])
	if !strings.HasPrefix(text, "toy · top-down: 4 nodes drawn, ") || !strings.Contains(svg, "maxnodes=N draws more") {
		t.Errorf("flame maxnodes=4 draws\n%s\nwant 4 nodes, some folded, and the maxnodes hint", text)
	}
}

func TestPictureErrors(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{"show", "no profile loaded"},
		{"load demo:profvis-toy\nshow layout=pie", "layout"},
		{"load demo:profvis-toy\nshow maxnodes=1", "maxnodes=1"},
		{"load demo:profvis-toy\nshow maxnodes=lots", "maxnodes=lots"},
		{"load demo:profvis-toy\nflame inverted=maybe", "inverted=maybe"},
		{"load demo:profvis-toy\nflame root=nosuch", "root=nosuch"},
		{"load demo:profvis-toy\nexport p.svg", "no picture of profvis-toy yet"},
	} {
		_, err := RunForTest(t, nil, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.code, err, tc.want)
		}
	}
}

// TestPictureSince: after an expand, the next picture outlines the nodes
// the step split; drawing the same view again outlines nothing.
func TestPictureSince(t *testing.T) {
	rec, err := RunForTest(t, nil, "load demo:profvis-toy as toy\nshow\nexpand \"lib1 > lib2\"\nshow\nflame")
	if err != nil {
		t.Fatal(err)
	}
	var svgs []string
	for _, b := range rec.Bundles() {
		if s, ok := kerneltest.SVG(b); ok {
			svgs = append(svgs, s)
		}
	}
	if len(svgs) != 3 {
		t.Fatalf("%d pictures, want 3", len(svgs))
	}
	// Figure 6 → 7: lib2.Lung, lib2.Muscle, lib2.Nerve and the two lib3 below them are new.
	for i, want := range []int{0, 5, 0} {
		if got := strings.Count(svgs[i], "pl-n pl-new"); got != want {
			t.Errorf("picture %d: %d nodes outlined as new, want %d", i, got, want)
		}
	}
}
