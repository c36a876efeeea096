package commands

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/pprof"
	"github.com/proflens/proflens/kernel"
)

// exportFormat writes a profile l to a file whose name ends in ext.
type exportFormat struct {
	ext   string // lower case, with its dot
	doc   string // what the file holds, for export's help
	write func(ctx context.Context, w io.Writer, l *kernel.Loaded) error
}

// exportFormats are the files export writes; the longest extension a file
// name ends with chooses (".pb.gz" before ".gz"). A profile's standing
// filter applies: the profile written is the one every command reads.
var exportFormats = []exportFormat{
	{".pprof", "gzipped pprof protobuf, readable by `go tool pprof` (per-sample times are dropped)", writePprof},
	{".pb.gz", "the same as `.pprof`", writePprof},
	{".folded", "folded stacks, one `a;b;c value` line per distinct stack, sorted, in the profile's current value type",
		func(_ context.Context, w io.Writer, l *kernel.Loaded) error {
			return folded.Write(w, l.Tree().Profile, l.Value)
		}},
	{".json", "the compacted tree of the current view, as `view` shows it",
		writeViewJSON},
	{".svg", "the last picture drawn of the profile (`show`, `flame`, `phases`...)", writePicture},
	{".html", "the last cels player of the profile (`cels`), a page that works offline; `export cels FILE.html` says so", writeCels},
}

func writePprof(_ context.Context, w io.Writer, l *kernel.Loaded) error {
	return pprof.Write(w, l.Tree().Profile)
}

func writeViewJSON(ctx context.Context, w io.Writer, l *kernel.Loaded) error {
	v, err := l.CompactedView(ctx)
	if err != nil {
		return err
	}
	if err := v.WriteJSON(w, l.Name, " "); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

func writePicture(_ context.Context, w io.Writer, l *kernel.Loaded) error {
	if l.Picture() == nil {
		return fmt.Errorf("no picture of %s yet: run show or flame first", l.Name)
	}
	_, err := w.Write(l.Picture())
	return err
}

func writeCels(_ context.Context, w io.Writer, l *kernel.Loaded) error {
	if celsKey.Get(l) == nil {
		return fmt.Errorf("no cels of %s yet: run cels first", l.Name)
	}
	_, err := w.Write(celsKey.Get(l))
	return err
}

// exportFor returns the format of path: the longest extension it ends
// with.
func exportFor(path string) (*exportFormat, error) {
	low := strings.ToLower(path)
	var best *exportFormat
	var exts []string
	for i, f := range exportFormats {
		exts = append(exts, f.ext)
		if strings.HasSuffix(low, f.ext) && (best == nil || len(f.ext) > len(best.ext)) {
			best = &exportFormats[i]
		}
	}
	if best == nil {
		return nil, fmt.Errorf("export %s: unknown extension %q (known: %s)", path, filepath.Ext(path), strings.Join(exts, ", "))
	}
	return best, nil
}

// exportDoc lists the formats, for export's help.
func exportDoc() string {
	var b strings.Builder
	for _, f := range exportFormats {
		fmt.Fprintf(&b, "`%s`: %s. ", f.ext, f.doc)
	}
	return strings.TrimSpace(b.String())
}
