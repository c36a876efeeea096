package commands

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// writeString is a write function for writeFile.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// dirNames lists dir's entries, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := writeFile(t.Context(), path, writeString("hello\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); got != "hello\n" {
		t.Errorf("out.txt = %q, want hello", got)
	}
	// A new file gets what os.Create gives: 0666 less the umask.
	ref, err := os.Create(filepath.Join(dir, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	fi, _ := os.Stat(path)
	rfi, _ := os.Stat(filepath.Join(dir, "ref"))
	if fi.Mode() != rfi.Mode() {
		t.Errorf("new file mode %v, os.Create gives %v", fi.Mode(), rfi.Mode())
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"out.txt", "ref"}) {
		t.Errorf("directory holds %q, want out.txt and ref only", got)
	}
}

// TestWriteFileFailedOverwrite: a write that fails half-way leaves the
// existing file as it was and no temporary file behind.
func TestWriteFileFailedOverwrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.json")
	if err := os.WriteFile(path, []byte("precious"), 0o640); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := writeFile(t.Context(), path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("x", 1<<16)) // past the buffer: bytes reach the disk
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("writeFile = %v, want the write's error", err)
	}
	if got := mustRead(t, path); got != "precious" {
		t.Errorf("keep.json = %.20q after a failed overwrite, want precious", got)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"keep.json"}) {
		t.Errorf("directory holds %q, want keep.json only", got)
	}
}

func TestWriteFileOverwriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "private.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o604); err != nil { // not what the umask gives
		t.Fatal(err)
	}
	if err := writeFile(t.Context(), path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if got := mustRead(t, path); got != "new" || fi.Mode() != 0o604 {
		t.Errorf("after overwrite: %q mode %v, want new mode -rw----r--", got, fi.Mode())
	}
}

// TestWriteFileFollowsLink: writing to a symbolic link replaces the file it
// points to; the link stays a link.
func TestWriteFileFollowsLink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.txt"), filepath.Join(dir, "link.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(t.Context(), link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a symbolic link: %v %v", fi, err)
	}
	if got := mustRead(t, target); got != "new" {
		t.Errorf("target.txt = %q, want new", got)
	}
}

// TestWriteFileRefusesSpecial: a directory or a FIFO is refused with an
// error naming what it is; nothing is written, and it is still there.
func TestWriteFileRefusesSpecial(t *testing.T) {
	dir := t.TempDir()
	sub, fifo := filepath.Join(dir, "sub"), filepath.Join(dir, "pipe")
	os.Mkdir(sub, 0o755)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, kind string }{{sub, "a directory"}, {fifo, "a named pipe (FIFO)"}} {
		before, _ := os.Lstat(tc.path)
		called := false
		err := writeFile(t.Context(), tc.path, func(io.Writer) error { called = true; return nil })
		if err == nil || !strings.Contains(err.Error(), tc.path+" is "+tc.kind+", not a regular file") {
			t.Errorf("writeFile(%s) = %v, want an error saying it is %s", tc.path, err, tc.kind)
		}
		if after, err := os.Lstat(tc.path); err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s after writeFile: %v, %v; want it untouched (%v)", tc.path, after, err, before.Mode())
		}
		if called {
			t.Errorf("writeFile(%s) wrote before refusing", tc.path)
		}
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"pipe", "sub"}) {
		t.Errorf("directory holds %q, want pipe and sub only", got)
	}
}

// TestWriteFileDanglingLink: a symbolic link to a file that does not exist
// yet stays a link, and the file it names is created.
func TestWriteFileDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(filepath.Join("sub", "later.txt"), link); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := writeFile(t.Context(), link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a symbolic link: %v %v", fi, err)
	}
	if got := mustRead(t, filepath.Join(dir, "sub", "later.txt")); got != "new" {
		t.Errorf("sub/later.txt = %q, want new", got)
	}
}

// TestWriteFileLongName: a name as long as the file system takes can be
// written, although the temporary file beside it has a longer name.
func TestWriteFileLongName(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{240, 246, 250, 254, 255} {
		name := strings.Repeat("é", n/2) + strings.Repeat("x", n%2)
		if err := writeFile(t.Context(), filepath.Join(dir, name), writeString("ok")); err != nil {
			t.Errorf("a name of %d bytes: %v", len(name), err)
		}
	}
	if names := dirNames(t, dir); len(names) != 5 {
		t.Errorf("files left: %d, want the 5 written", len(names))
	}
}
