package formats

import (
	"context"
	"embed"
	"fmt"
	"sort"
	"strings"

	"github.com/proflens/proflens/analysis"
)

//go:embed demo/*
var demoFiles embed.FS

// Demos returns the names of the embedded demo profiles ("profvis-toy", …),
// sorted.
func Demos() []string {
	entries, _ := demoFiles.ReadDir("demo")
	var out []string
	for _, e := range entries {
		n := e.Name()
		if i := strings.IndexByte(n, '.'); i > 0 {
			n = n[:i]
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Demo loads an embedded demo profile by name, with or without the "demo:"
// prefix: "demo:profvis-toy" is the hprof output of the ProfVis paper's
// Figure 1 (seed 000), three traces weighted 3, 1 and 2.
func Demo(name string) (*analysis.Profile, error) {
	return LoadDemo(context.Background(), name, analysis.LoadOptions{})
}

// LoadDemo loads an embedded demo profile as Demo does, within the limits
// and options of a load (limit=, max-samples=, value=, ...), as a file of
// the same bytes would be loaded.
func LoadDemo(ctx context.Context, name string, opts analysis.LoadOptions) (*analysis.Profile, error) {
	name = strings.TrimPrefix(name, "demo:")
	entries, _ := demoFiles.ReadDir("demo")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), name+".") {
			data, err := demoFiles.ReadFile("demo/" + e.Name())
			if err != nil {
				return nil, fmt.Errorf("load demo:%s: %w", name, err)
			}
			if limit := opts.Limit; limit > 0 && int64(len(data)) > limit {
				return nil, fmt.Errorf("load demo:%s: larger than the limit of %d bytes (set limit= to raise it)", name, limit)
			}
			p, err := analysis.Parse(ctx, "demo:"+name, data, opts)
			if err != nil {
				return nil, fmt.Errorf("load %w", err)
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("load demo:%s: no such demo (have: %s)", name, strings.Join(Demos(), ", "))
}
