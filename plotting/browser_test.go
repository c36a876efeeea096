package plotting

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// screenshot renders html in headless Chromium and returns the PNG. It
// skips the test when Chromium is not installed.
func screenshot(t *testing.T, dir, name, html string) image.Image {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed")
	}
	page := filepath.Join(dir, name+".html")
	out := filepath.Join(dir, name+".png")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+out, "--window-size=1240,900", "file://"+page)
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

// ink counts the pixels that are not (nearly) white, and the pixels that
// are dark (text).
func ink(img image.Image) (coloured, dark int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
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

// TestBrowser draws the toy at Figure 2 in each layout, shows it inline in
// an HTML page as a notebook does, and checks the screenshot: the picture
// is not blank, and hiding the labels removes many dark pixels, so labels
// are drawn where they can be seen. Set PROFLENS_SHOTS=DIR to keep the PNGs.
func TestBrowser(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("PROFLENS_SHOTS"); d != "" {
		dir = d
	}
	views := toyViews(t)
	for _, o := range []Options{{Layout: LayoutRadial}, {Layout: LayoutTree}, {Layout: LayoutFlame}} {
		o.Profile = "toy"
		pic, err := Draw(views["fig2"], o)
		if err != nil {
			t.Fatal(err)
		}
		page := "<!doctype html><html><body style=\"margin:0;background:#fff\"><div>" + string(pic.SVG) + "</div></body></html>"
		with := screenshot(t, dir, o.Layout, page)
		without := screenshot(t, dir, o.Layout+"-nolabels",
			"<style>svg text{visibility:hidden}</style>"+page)
		c, d := ink(with)
		c0, d0 := ink(without)
		total := with.Bounds().Dx() * with.Bounds().Dy()
		t.Logf("%s: %d of %d pixels coloured, %d dark; without labels %d coloured, %d dark", o.Layout, c, total, d, c0, d0)
		if c < total/200 {
			t.Errorf("%s: only %d of %d pixels are not white: blank picture?", o.Layout, c, total)
		}
		if d-d0 < 500 {
			t.Errorf("%s: labels add only %d dark pixels: are they visible?", o.Layout, d-d0)
		}
	}
}
