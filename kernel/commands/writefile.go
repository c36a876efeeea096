package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"
)

// writeFile writes a file through write without ever destroying what the
// user named: the bytes go to a new temporary file beside path, which is
// renamed over path only when write, the flush and the close all
// succeeded. A failed write removes the temporary file and leaves path as
// it was. A path that exists and is not a regular file (a device, a FIFO, a
// directory, a socket) is refused before anything is written: renaming
// over it would replace it. A symbolic link is followed, so the file it
// points to is replaced and the link stays. An existing file keeps its
// permission bits; a new one gets 0666 less the umask, as os.Create gives.
// An interrupt (ctx done) fails the write at the next 4 KiB written, or
// at the end.
func writeFile(ctx context.Context, path string, write func(w io.Writer) error) error {
	target, mode, err := writeTarget(path)
	if err != nil {
		return err
	}
	f, err := createBeside(target, mode)
	if err != nil {
		return err
	}
	if err := fill(ctx, f, mode, write); err != nil {
		os.Remove(f.Name()) // the temporary file, never the target
		return bare(err)
	}
	if err := os.Rename(f.Name(), target); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("replace %s: %w", target, bare(err))
	}
	return nil
}

// writeTarget returns the file to replace (path, or where the symbolic
// links from path lead, even to a file that does not exist yet) and the
// permission bits an existing regular file has (0 for a new file).
// Anything that is not a regular file is an error.
func writeTarget(path string) (string, fs.FileMode, error) {
	target, err := followLinks(path)
	if err != nil {
		return "", 0, err
	}
	fi, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return target, 0, nil
	}
	if err != nil {
		return "", 0, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is %s, not a regular file: name a file to write", path, fileKind(fi.Mode()))
	}
	return target, fi.Mode().Perm(), nil
}

// followLinks returns where path leads through symbolic links; the last
// link may point to a file that does not exist yet, which is then the one
// to create.
func followLinks(path string) (string, error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil // not a link, or nothing there yet
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// fileKind names the kind of a file that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// createBeside creates a new, empty temporary file in target's directory,
// named after target (cut short where target's name is long). With mode 0 the umask applies to 0666.
func createBeside(target string, mode fs.FileMode) (*os.File, error) {
	perm := mode
	if perm == 0 {
		perm = 0o666
	}
	dir, base := filepath.Split(target)
	for try := 0; ; try++ {
		suffix := "." + strconv.FormatUint(uint64(rand.Uint32()), 36) + ".tmp"
		name := filepath.Join(dir, "."+cutName(base, maxName-1-len(suffix))+suffix)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cannot write in %s: %w", dir, bare(err))
		}
		return f, nil
	}
}

// maxName is the longest file name most file systems take (NAME_MAX).
const maxName = 255

// cutName shortens name to at most n bytes, at a character's boundary, so
// that the temporary name beside a long file name is still a name.
func cutName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return name[:n]
}

// fill writes f through write, buffered, and closes it. An existing
// file's permission bits are set exactly (the umask may have cut them).
func fill(ctx context.Context, f *os.File, mode fs.FileMode, write func(w io.Writer) error) error {
	bw := bufio.NewWriter(stopWriter{ctx, f})
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil && mode != 0 {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// bare returns the cause of a file system error without the temporary
// file's name, which means nothing to the user.
func bare(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// stopWriter is w that fails with ctx's error once ctx is done.
type stopWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s stopWriter) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}
