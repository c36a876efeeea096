package proflens_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/proflens/proflens"

// groups is the allowed import graph of STYLE.md "Our shape": each group of
// packages may import the groups listed (its own included). Data flows one
// way: analysis ← compaction, phase ← plotting ← kernel ← cmd; the
// protocol layer (kernel/jupyter) knows nothing of profiles.
var groups = map[string][]string{
	"internal":   {"internal"},
	"analysis":   {"analysis", "internal"},
	"compaction": {"compaction", "analysis", "internal"},
	"phase":      {"phase", "compaction", "analysis", "internal"},
	"plotting":   {"plotting", "phase", "compaction", "analysis", "internal"},
	"jupyter":    {"jupyter", "internal"},
	"kernel":     {"kernel", "jupyter", "plotting", "phase", "compaction", "analysis", "internal"},
	"cmd":        {"cmd", "kernel", "jupyter", "plotting", "phase", "compaction", "analysis", "internal"},
}

// thirdParty says which groups may import a module outside the standard
// library; a module not listed may not be imported at all.
var thirdParty = map[string][]string{
	"github.com/google/pprof/profile": {"analysis"},
	"gonum.org/v1/plot":               {"plotting"},
	"gonum.org/v1/gonum":              {"analysis", "compaction", "phase", "plotting", "kernel", "cmd"},
	"github.com/go-zeromq/zmq4":       {"jupyter"},
	// The Go execution trace parser (added with the phase work, commit
	// dee62e0): the standard library has no public trace reader.
	"golang.org/x/exp/trace": {"analysis"},
}

// loggers may import log or log/slog: only the kernel logs.
var loggers = []string{"kernel", "jupyter", "cmd"}

// group returns the group of a package directory relative to the module
// root, or "" when the directory belongs to none.
func group(rel string) string {
	switch first, _, _ := strings.Cut(rel, "/"); {
	case rel == "kernel/jupyter" || strings.HasPrefix(rel, "kernel/jupyter/"):
		return "jupyter"
	case groups[first] != nil:
		return first
	}
	return ""
}

// TestDependencies checks every package's (non-test) imports against the
// allowed graph.
func TestDependencies(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "notebooks") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil || path == "." {
			return nil // no Go files here (or only tests)
		}
		checked++
		checkImports(t, filepath.ToSlash(path), pkg.Imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Fatalf("checked %d packages; run the test from the module root", checked)
	}
}

func checkImports(t *testing.T, rel string, imports []string) {
	g := group(rel)
	if g == "" {
		t.Errorf("package %s is in no group of deps_test.go: add it to the import graph", rel)
		return
	}
	for _, imp := range imports {
		switch {
		case imp == "log" || imp == "log/slog":
			if !slices.Contains(loggers, g) {
				t.Errorf("%s imports %s: only the kernel logs; return errors instead", rel, imp)
			}
		case strings.HasPrefix(imp, module+"/"):
			if to := group(strings.TrimPrefix(imp, module+"/")); !slices.Contains(groups[g], to) {
				t.Errorf("%s imports %s: %s may import only %v", rel, imp, g, groups[g])
			}
		case strings.Contains(strings.Split(imp, "/")[0], "."):
			checkThirdParty(t, rel, g, imp)
		}
	}
}

func checkThirdParty(t *testing.T, rel, g, imp string) {
	for mod, allowed := range thirdParty {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			if !slices.Contains(allowed, g) {
				t.Errorf("%s imports %s: only %v may", rel, imp, allowed)
			}
			return
		}
	}
	t.Errorf("%s imports %s, which is not an allowed dependency (see deps_test.go)", rel, imp)
}

// TestGroup pins the directory → group mapping.
func TestGroup(t *testing.T) {
	for rel, want := range map[string]string{
		"analysis": "analysis", "analysis/x": "analysis", "kernel": "kernel", "kernel/jupyter": "jupyter",
		"kernel/jupyter/wire": "jupyter", "kernel/other": "kernel", "cmd/proflens": "cmd",
		"internal/version": "internal", "tools": "",
	} {
		if got := group(rel); got != want {
			t.Errorf("group(%q) = %q, want %q", rel, got, want)
		}
	}
}
