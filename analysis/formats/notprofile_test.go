package formats

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestNotProfiles: an empty file and files that are not profiles (real
// ones from this repository where it has them: the logo, an SVG, an HTML
// page, the test binary) are named for what they are, at byte 0, instead
// of failing inside a format's decoder.
func TestNotProfiles(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var zipped, gz bytes.Buffer
	zw := zip.NewWriter(&zipped)
	if w, err := zw.Create("cpu.pprof"); err == nil {
		w.Write([]byte("x"))
	}
	zw.Close()
	gzip.NewWriter(&gz).Close()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "expected a profile, found an empty file"},
		{"empty.gz", gz.Bytes(), "expected a profile, found an empty file"},
		{"../../cmd/proflens/logo-32x32.png", nil, "expected a profile, found a PNG image"},
		{"../../docs/radial.svg", nil, "expected a profile, found an SVG image"},
		{"../../kernel/testdata/help_echo.html", nil, "expected a profile, found HTML or XML markup"},
		{"page.html", []byte("\n<!DOCTYPE html>\n<html><body>profile</body></html>"), "found an HTML page; save the profile itself"},
		{exe, nil, "expected a profile, found an ELF executable or library"},
		{"profile.zip", zipped.Bytes(), "expected a profile, found a ZIP archive"},
		{"report.pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"), "expected a profile, found a PDF document"},
		{"perf.data", []byte("PERFILE2h\x00\x00\x00\x00\x00\x00\x00"), "found a perf.data file; load the text that `perf script` prints"},
		{"heap.hprof", []byte("JAVA PROFILE 1.0.2\x00\x00\x00\x00\x08"), "found a binary hprof heap dump"},
	} {
		data := c.data
		if data == nil && c.name != "empty" {
			if data, err = os.ReadFile(c.name); err != nil {
				t.Fatal(err)
			}
		}
		_, err := analysis.Parse(context.Background(), c.name, data, analysis.LoadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), c.name+": byte 0: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) error = %v, want %q at byte 0", filepath.Base(c.name), err, c.want)
		}
	}
}

// TestNotProfileLookAlikes: text that merely starts like a magic number is
// still read as the profile it is.
func TestNotProfileLookAlikes(t *testing.T) {
	for _, text := range []string{"MZ_init;main 3\n", "BZh;work 2\n", "<module>;main;<lambda> 4\n"} {
		p, err := analysis.Parse(context.Background(), "in", []byte(text), analysis.LoadOptions{})
		if err != nil || p.Format != "folded" {
			t.Errorf("Parse(%q) = %v; want a folded profile", text, err)
		}
	}
}

// TestUnknownFormatWords: the known formats are listed as words.
func TestUnknownFormatWords(t *testing.T) {
	_, err := analysis.Parse(context.Background(), "in", []byte("main 1\n"), analysis.LoadOptions{Format: "nope"})
	if err == nil || strings.ContainsAny(err.Error(), "[]") || !strings.Contains(err.Error(), "(known: ") || !strings.Contains(err.Error(), "pprof, ") {
		t.Errorf("error = %v, want the known formats as a list of words", err)
	}
}
