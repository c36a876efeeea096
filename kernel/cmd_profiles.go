package kernel

import (
	"fmt"
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

// exporterFor returns the exporter for path's extension.
func exporterFor(path string) (ExportFunc, error) {
	ext := strings.ToLower(filepath.Ext(path))
	fn, ok := exporters[ext]
	if !ok {
		return nil, fmt.Errorf("export %s: unknown extension %q (known: %s)", path, ext, strings.Join(exportExts(), ", "))
	}
	return fn, nil
}
