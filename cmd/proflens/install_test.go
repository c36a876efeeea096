package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/proflens/proflens/internal/version"
	"github.com/proflens/proflens/kernel/jupyter"
)

func TestInstallPrefix(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := mainArgs([]string{"install", "--prefix", dir}, &out, &errb); code != 0 {
		t.Fatalf("install --prefix: exit %d, stderr %s", code, errb.String())
	}
	spec := filepath.Join(dir, "share", "jupyter", "kernels", "proflens")
	data, err := os.ReadFile(filepath.Join(spec, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ks kernelSpec
	if err := json.Unmarshal(data, &ks); err != nil {
		t.Fatalf("kernel.json: %v", err)
	}
	if len(ks.Argv) != 4 || !filepath.IsAbs(ks.Argv[0]) || ks.Argv[1] != "kernel" || ks.Argv[2] != "-f" || ks.Argv[3] != "{connection_file}" {
		t.Errorf("argv = %q, want [ABS kernel -f {connection_file}]", ks.Argv)
	}
	if ks.DisplayName != "proflens" || ks.Language != "proflens" || ks.InterruptMode != "message" {
		t.Errorf("kernel.json = %+v", ks)
	}
	// Jupyter reads the spec's version to decide how to speak to the kernel
	// before kernel_info; it must be the one kernel_info_reply reports.
	if ks.ProtocolVer != jupyter.ProtocolVersion || !regexp.MustCompile(`^5\.\d+$`).MatchString(ks.ProtocolVer) {
		t.Errorf("kernel_protocol_version = %q, want %q (what kernel_info_reply reports)", ks.ProtocolVer, jupyter.ProtocolVersion)
	}
	for name, size := range map[string]int{"logo-32x32.png": 32, "logo-64x64.png": 64} {
		f, err := os.Open(filepath.Join(spec, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Errorf("%s: %v, bounds %v; want a %dx%d PNG", name, err, img.Bounds(), size, size)
		}
	}
	if _, err := os.Stat(filepath.Join(spec, "logo-svg.svg")); err != nil {
		t.Error(err)
	}
}

func TestInstallFlagsExclusive(t *testing.T) {
	var out, errb bytes.Buffer
	if code := mainArgs([]string{"install", "--user", "--prefix", t.TempDir()}, &out, &errb); code == 0 {
		t.Errorf("install --user --prefix: exit 0, want an error")
	}
}

func TestUserDir(t *testing.T) {
	t.Setenv("JUPYTER_DATA_DIR", "/x/data")
	if d, _ := kernelsDir(true, false, ""); d != "/x/data/kernels" {
		t.Errorf("kernelsDir(--user) with JUPYTER_DATA_DIR = %q, want /x/data/kernels", d)
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := mainArgs([]string{"version"}, &out, &errb); code != 0 || out.String() != version.String()+"\n" {
		t.Errorf("version: exit %d, %q; want %q", code, out.String(), version.String()+"\n")
	}
	if code := mainArgs([]string{"bogus"}, &out, &errb); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}

func TestShebang(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ content, want string }{
		{"#!/usr/bin/python3\nimport x\n", "/usr/bin/python3"},
		{"#! /opt/py/bin/python3.11 -E\n", "/opt/py/bin/python3.11"},
		{"import x\n", ""},
		{"", ""},
	}
	for i, tt := range tests {
		p := filepath.Join(dir, fmt.Sprintf("script%d", i))
		os.WriteFile(p, []byte(tt.content), 0o755)
		if got := shebang(p); got != tt.want {
			t.Errorf("shebang(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
	if got := shebang(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("shebang(missing) = %q, want \"\"", got)
	}
}
