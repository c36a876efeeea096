package commands

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// needRoot skips a test that makes device nodes or mounts file systems.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root (mknod, mount)")
	}
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory, unmounted at
// the end of the test; it skips when the system does not allow it.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	needRoot(t)
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// TestWriteFileCharDevice: a character device (here /dev/full's numbers,
// made with mknod) is refused and survives: an export never removes a
// device node.
func TestWriteFileCharDevice(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	dev := filepath.Join(dir, "full.folded")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skipf("mknod: %v", err)
	}
	err := writeFile(t.Context(), dev, writeString("x"))
	if err == nil || !strings.Contains(err.Error(), "is a character device, not a regular file") {
		t.Errorf("writeFile(device) = %v, want an error saying it is a character device", err)
	}
	fi, err := os.Lstat(dev)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 || fi.Sys().(*syscall.Stat_t).Rdev != 1<<8|7 {
		t.Errorf("the device after writeFile: %v, %v; want it still there", fi, err)
	}
	// The same through the command: export and its error.
	s := kernel.NewSession(dir, testTable())
	_, err = RunForTest(t, s, "load demo:profvis-toy as toy\nexport toy full.folded")
	if err == nil || !strings.Contains(err.Error(), "export full.folded: "+dev+" is a character device") {
		t.Errorf("export toy full.folded = %v, want a refusal naming the device", err)
	}
	if _, err := os.Lstat(dev); err != nil {
		t.Errorf("export removed the device: %v", err)
	}
}

// TestWriteFileReadOnlyDir: a directory nothing can be written in gives an
// error and no file. As root, permission bits do not stop a write, so the
// directory is a read-only tmpfs there; otherwise mode 0555.
func TestWriteFileReadOnlyDir(t *testing.T) {
	var dir string
	if os.Geteuid() == 0 {
		dir = mountTmpfs(t, "64k")
		os.WriteFile(filepath.Join(dir, "old.txt"), []byte("old"), 0o644)
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Skipf("remount read-only: %v", err)
		}
	} else {
		dir = t.TempDir()
		os.WriteFile(filepath.Join(dir, "old.txt"), []byte("old"), 0o644)
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	for _, name := range []string{"new.txt", "old.txt"} {
		err := writeFile(t.Context(), filepath.Join(dir, name), writeString("new"))
		if err == nil || !strings.Contains(err.Error(), "cannot write in "+dir) {
			t.Errorf("writeFile(%s) in a read-only directory = %v, want cannot write in %s", name, err, dir)
		}
	}
	if got := mustRead(t, filepath.Join(dir, "old.txt")); got != "old" {
		t.Errorf("old.txt = %q, want old", got)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"old.txt"}) {
		t.Errorf("directory holds %q, want old.txt only", got)
	}
}

// TestWriteFileDiskFull: an overwrite that runs out of space (a 16 KiB
// tmpfs) fails with ENOSPC and leaves the old file whole.
func TestWriteFileDiskFull(t *testing.T) {
	dir := mountTmpfs(t, "16k")
	path := filepath.Join(dir, "keep.folded")
	if err := os.WriteFile(path, []byte("a;b 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFile(t.Context(), path, writeString(strings.Repeat("a;b;c 1\n", 1<<14)))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("writeFile on a full disk = %v, want ENOSPC", err)
	}
	if got := mustRead(t, path); got != "a;b 1\n" {
		t.Errorf("keep.folded = %.20q after a failed overwrite, want a;b 1", got)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"keep.folded"}) {
		t.Errorf("directory holds %q, want keep.folded only", got)
	}
}
