package kernel

import (
	"fmt"
	"github.com/proflens/proflens/analysis"
	"path/filepath"
	"sort"
	"strings"
)

// ExportFunc writes profile l to path in one file format. It is called by
// the export command after the path has been resolved against the session's
// directory.
type ExportFunc func(c *Call, l *Loaded, path string) error

var exporters = map[string]ExportFunc{}

// RegisterExport makes `export [NAME] FILE.ext` write files ending in ext
// (".json", ".svg"...) with fn. Packages call it from init; it panics on a
// duplicate extension (a programming mistake, found at start-up).
func RegisterExport(ext string, fn ExportFunc) {
	ext = strings.ToLower(ext)
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	if _, dup := exporters[ext]; dup {
		panic("kernel: duplicate export extension " + ext)
	}
	exporters[ext] = fn
}

// exportExts returns the registered extensions, sorted.
func exportExts() []string {
	out := make([]string, 0, len(exporters))
	for e := range exporters {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// exporterFor returns the exporter for path: the longest registered
// extension path ends with, so that ".pb.gz" wins over ".gz".
func exporterFor(path string) (ExportFunc, error) {
	low := strings.ToLower(path)
	best := ""
	for ext := range exporters {
		if strings.HasSuffix(low, ext) && len(ext) > len(best) {
			best = ext
		}
	}
	if best == "" {
		return nil, fmt.Errorf("export %s: unknown extension %q (known: %s)", path, filepath.Ext(path), strings.Join(exportExts(), ", "))
	}
	return exporters[best], nil
}

func init() {
	Register(&Command{
		Name:     "profiles",
		Summary:  "List the loaded profiles.",
		Usage:    "profiles",
		Doc:      "One row per loaded profile, sorted by name; the current profile is marked with *.",
		Examples: []string{"load demo:profvis-toy as toy", "profiles"},
		Run:      runProfiles,
	})
}

func runProfiles(c *Call) error {
	names := c.Session.Names()
	if len(names) == 0 {
		c.Print("no profiles loaded: use load PATH\n")
		return nil
	}
	cur := c.Session.Current()
	t := &Table{Columns: []string{"current", "name", "format", "samples", "value", "total", "source"}}
	for _, n := range names {
		l := c.Session.Get(n)
		p := l.Profile
		mark := ""
		if l == cur {
			mark = "*"
		}
		vt := p.ValueTypes[l.Value]
		total := p.Total(l.Value)
		t.Rows = append(t.Rows, []any{mark, n, p.Format, len(p.Samples), vt.Type,
			Cell{Text: analysis.FormatValue(total, vt.Unit), Value: total}, p.Source})
	}
	c.Table(t)
	return nil
}
