package kernel

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/pprof"
)

func init() {
	Register(&Command{
		Name:    "export",
		Summary: "Write a profile to a file; the extension chooses the format.",
		Doc: "`.pprof` or `.pb.gz`: gzipped pprof protobuf, readable by `go tool pprof` (per-sample times are dropped). " +
			"`.folded`: folded stacks, one `a;b;c value` line per distinct stack, sorted, in the profile's current value type. " +
			"Other extensions (`.json` for the compacted tree, `.svg` for the last picture) come from the " +
			"commands that make them.",
		Args: []Arg{
			{Name: "FILE", Doc: "output file; its extension chooses the format", Kind: KindFile},
		},
		Examples:   []string{"load demo:profvis-toy as toy", "export toy toy.folded", "export toy.pprof"},
		ProfileArg: true,
		Run:        runExport,
	})
	asPprof := func(c *Call, l *Loaded, path string) error {
		return writeFile(path, func(w io.Writer) error { return pprof.Write(w, l.Profile) })
	}
	RegisterExport(".pprof", asPprof)
	RegisterExport(".pb.gz", asPprof)
	RegisterExport(".folded", func(c *Call, l *Loaded, path string) error {
		return writeFile(path, func(w io.Writer) error { return folded.Write(w, l.Profile, l.Value) })
	})
}

func runExport(c *Call) error {
	l, err := c.Loaded()
	if err != nil {
		return err
	}
	file := c.Arg(0)
	fn, err := exporterFor(file)
	if err != nil {
		return c.Usagef("%v", err)
	}
	path := c.Path(file)
	if err := fn(c, l, path); err != nil {
		return fmt.Errorf("export %s: %w", file, err)
	}
	c.Printf("wrote %s (%s)\n", file, l.Name)
	return nil
}

// writeFile creates path and calls write with a buffered writer; the file
// is removed when write fails.
func writeFile(path string, write func(w io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
