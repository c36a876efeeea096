package plotting

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/internal/testtool"
)

// screenshot renders html in headless Chromium and returns the PNG. It
// skips the test when Chromium is not installed.
func screenshot(t *testing.T, dir, name, html string, height int) image.Image {
	t.Helper()
	bin := testtool.Need(t, "chromium")
	page := filepath.Join(dir, name+".html")
	out := filepath.Join(dir, name+".png")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+out, fmt.Sprintf("--window-size=1240,%d", height), "file://"+page)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, msg)
	}
	f, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	return img
}

// ink counts, in the pixel rows [y0, y1), the pixels that are not (nearly)
// white, and the pixels that are dark (text).
func ink(img image.Image, y0, y1 int) (coloured, dark int) {
	b := img.Bounds()
	for y := b.Min.Y + y0; y < b.Min.Y+y1 && y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				coloured++
			}
			if r < 0x5000 && g < 0x5000 && bl < 0x5000 {
				dark++
			}
		}
	}
	return coloured, dark
}

// wideView is a root with n children of weights 1..n.
func wideView(n int) *compaction.View {
	root := &tnode{name: "main"}
	for i := 1; i <= n; i++ {
		root.kids = append(root.kids, &tnode{name: fmt.Sprintf("pkg%d.f", i), self: int64(i)})
	}
	return makeView(root)
}

// count counts the pixels of the grey #vvvvvv in the rows [y0, y1).
func count(img image.Image, y0, y1 int, v uint32) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y + y0; y < b.Min.Y+y1 && y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == v && g>>8 == v && bl>>8 == v {
				n++
			}
		}
	}
	return n
}

// TestBrowser draws the toy at Figure 2 in each layout, and a large view on
// a small budget, shows the pictures inline in one HTML page as a notebook
// does, and checks the screenshot: no picture is blank, hiding the labels
// removes many dark pixels from each, so labels are drawn where they can be
// seen, and the fold marks show. Set PROFLENS_SHOTS=DIR
// to keep the PNGs.
func TestBrowser(t *testing.T) {
	testtool.Need(t, "chromium")
	dir := t.TempDir()
	if d := os.Getenv("PROFLENS_SHOTS"); d != "" {
		dir = d
	}
	views := toyViews(t)
	layouts := []string{LayoutRadial, LayoutTree, LayoutFlame, "folded"}
	var page strings.Builder
	var tops []int // each picture's first pixel row
	y := 0
	for _, l := range layouts {
		v, o := views["fig2"], Options{Layout: l, Profile: "toy"}
		if l == "folded" { // a wide view on a small budget: grey "+N more" marks
			v, o = wideView(400), Options{Layout: LayoutFlame, MaxNodes: 60}
		}
		pic, err := Draw(v, o)
		if err != nil {
			t.Fatal(err)
		}
		var w, h int
		if _, err := fmt.Sscanf(string(pic.SVG), `<svg xmlns="http://www.w3.org/2000/svg" class="proflens" width="%d" height="%d"`, &w, &h); err != nil {
			t.Fatalf("%s: no size in the SVG: %v", l, err)
		}
		tops = append(tops, y)
		y += h
		page.WriteString("<div>" + string(pic.SVG) + "</div>")
	}
	tops = append(tops, y)
	html := "<!doctype html><html><head><style>body{margin:0;background:#fff}svg{display:block}</style></head><body>" + page.String() + "</body></html>"
	with := screenshot(t, dir, "toy", html, y)
	without := screenshot(t, dir, "toy-nolabels", strings.Replace(html, "<style>", "<style>svg text{visibility:hidden}", 1), y)
	for i, l := range layouts {
		c, d := ink(with, tops[i], tops[i+1])
		_, d0 := ink(without, tops[i], tops[i+1])
		area := with.Bounds().Dx() * (tops[i+1] - tops[i])
		t.Logf("%s: %d of %d pixels coloured, %d dark; %d dark without labels", l, c, area, d, d0)
		if c < area/100 {
			t.Errorf("%s: only %d of %d pixels are not white: blank picture?", l, c, area)
		}
		if l == "folded" {
			if g := count(with, tops[i], tops[i+1], 0xd9); g < 1000 {
				t.Errorf("folded: only %d pixels of the fold marks' grey", g)
			}
			continue
		}
		if d-d0 < 500 {
			t.Errorf("%s: labels add only %d dark pixels: are they visible?", l, d-d0)
		}
	}
}
