package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/proflens/proflens/kernel"
)

var exportCommand = &kernel.Command{
	Name:    "export",
	Summary: "Write a profile to a file; the extension chooses the format.",
	Doc: exportDoc() + "\n\nThe profile's standing filter (see `filter`) applies. The file is written whole or " +
		"not at all: a failed write leaves what was there, and a path that is not a regular file (a device, " +
		"a FIFO, a directory) is refused.",
	Args: []kernel.Arg{
		{Name: "FILE", Doc: "output file; its extension chooses the format (or the word cels, then the file)", Kind: kernel.KindFile},
		{Name: "FILE.html", Doc: "after the word cels: the page of the last cels player", Kind: kernel.KindFile, Optional: true},
	},
	Examples: []string{"load demo:profvis-toy as toy", "export toy toy.folded", "export toy.pprof", "show", "export toy.svg"},
	Profiles: 1,
	Run:      runExport,
}

func runExport(c *kernel.Call) error {
	l, file := c.Profile(), c.Arg(0)
	if len(c.Args) == 2 {
		if c.Arg(0) != "cels" || !strings.HasSuffix(strings.ToLower(c.Arg(1)), ".html") {
			return c.Usagef("%s %s: write export FILE, or export cels FILE.html for the cels player", c.Arg(0), c.Arg(1))
		}
		file = c.Arg(1)
	}
	f, err := exportFor(file)
	if err != nil {
		return c.Usagef("%v", err)
	}
	err = writeFile(c.Ctx, c.Path(file), func(w io.Writer) error { return f.write(c.Ctx, w, l) })
	if err != nil {
		return fmt.Errorf("export %s: %w", file, err)
	}
	c.Printf("wrote %s (%s)\n", file, l.Name)
	return nil
}
