package kernel

import (
	"fmt"
	"io"

	"github.com/proflens/proflens/analysis"
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
	pprof := func(c *Call, l *Loaded, path string) error {
		return writeFile(path, func(w io.Writer) error { return analysis.WritePprof(w, l.Profile) })
	}
	RegisterExport(".pprof", pprof)
	RegisterExport(".pb.gz", pprof)
	RegisterExport(".folded", func(c *Call, l *Loaded, path string) error {
		return writeFile(path, func(w io.Writer) error { return analysis.WriteFolded(w, l.Profile, l.Value) })
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
