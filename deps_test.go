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
//
// Inside analysis, the model (group "analysis") knows no format and none of
// what formats share. Each format is a package of its own (group "format":
// analysis/pprof, analysis/folded, ...) that imports the model and what
// formats share (analysis/internal), never another format;
// analysis/formats imports every format, for programs that read them all;
// analysis/gen writes generated profiles as pprof. Only the kernel and the
// binary need formats: the later stages work on the model.
//
// store (profiles from Pyroscope and Parca) reads the stores' pprof answers
// with analysis and analysis/pprof, beside the loaders; the kernel uses it.
// store/storetest starts real stores for the tests, and tests/... holds
// test tools (tests/stores/fleet) that use it.
var groups = map[string][]string{
	"internal":          {"internal"},
	"agent":             {"agent"},
	"live":              {"live", "agent", "format", "analysis", "internal"},
	"analysis":          {"analysis", "internal"},
	"analysis/internal": {"analysis/internal", "analysis", "internal"},
	"format":            {"format", "analysis/internal", "analysis", "internal"},
	"formats":           {"formats", "format", "analysis/internal", "analysis", "internal"},
	"gen":               {"gen", "format", "analysis", "internal"},
	"analysistest":      {"analysistest", "analysis", "internal"},
	"compaction":        {"compaction", "analysis", "internal"},
	"phase":             {"phase", "compaction", "analysis", "internal"},
	"avid":              {"avid", "analysis", "internal"},
	"blueprint":         {"blueprint", "avid", "compaction", "analysis", "internal"},
	"plotting":          {"plotting", "phase", "compaction", "avid", "blueprint", "analysis", "internal"},
	"jupyter":           {"jupyter", "internal"},
	"store":             {"store", "format", "analysis", "internal"},
	"kernel":            {"kernel", "jupyter", "plotting", "phase", "avid", "blueprint", "compaction", "store", "live", "agent", "formats", "format", "analysis", "internal"},
	"cmd":               {"cmd", "kernel", "jupyter", "plotting", "phase", "avid", "blueprint", "compaction", "store", "live", "agent", "formats", "format", "analysis", "internal"},
	"tests":             {"tests", "store", "format", "analysis", "internal"},
}

// thirdParty says which groups, or which packages, may import a module
// outside the standard library; a module not listed may not be imported at
// all.
var thirdParty = map[string][]string{
	"github.com/google/pprof/profile": {"analysis/pprof"},
	// Demangling C++ and Rust symbols (CleanName): the library pprof uses.
	"github.com/ianlancetaylor/demangle": {"analysis"},
	"gonum.org/v1/plot":                  {"plotting"},
	"gonum.org/v1/gonum":                 {"analysis", "compaction", "phase", "plotting", "kernel", "cmd"},
	"github.com/go-zeromq/zmq4":          {"jupyter"},
	// The Go execution trace parser (added with the phase work, commit
	// dee62e0): the standard library has no public trace reader.
	"golang.org/x/exp/trace": {"analysis/gotrace"},
	// The JDK Flight Recorder parser (Apache-2.0), for the jfr format.
	"github.com/grafana/jfr-parser": {"analysis/jfr"},
}

// loggers may import log or log/slog: only the kernel logs.
var loggers = []string{"kernel", "jupyter", "cmd"}

// group returns the group of a package directory relative to the module
// root, or "" when the directory belongs to none.
func group(rel string) string {
	first, rest, _ := strings.Cut(rel, "/")
	switch {
	case rel == "kernel/jupyter" || strings.HasPrefix(rel, "kernel/jupyter/"):
		return "jupyter"
	case first == "analysis" && rest != "":
		switch name, _, _ := strings.Cut(rest, "/"); name {
		case "internal":
			return "analysis/internal"
		case "formats", "gen", "analysistest":
			return name
		}
		return "format"
	case groups[first] != nil:
		return first
	}
	return ""
}

// formatOf returns the format package that a directory of group "format"
// belongs to ("analysis/pprof").
func formatOf(rel string) string {
	parts := strings.SplitN(rel, "/", 3)
	return parts[0] + "/" + parts[1]
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

// problems lists what is wrong with a package's imports.
func problems(rel string, imports []string) []string {
	g := group(rel)
	if g == "" {
		return []string{"package " + rel + " is in no group of deps_test.go: add it to the import graph"}
	}
	var out []string
	for _, imp := range imports {
		switch {
		case imp == "log" || imp == "log/slog":
			if !slices.Contains(loggers, g) {
				out = append(out, rel+" imports "+imp+": only the kernel logs; return errors instead")
			}
		case strings.HasPrefix(imp, module+"/"):
			to := strings.TrimPrefix(imp, module+"/")
			switch tg := group(to); {
			case !slices.Contains(groups[g], tg):
				out = append(out, rel+" imports "+imp+": "+g+" may import only "+strings.Join(groups[g], ", "))
			case g == "format" && tg == "format" && formatOf(rel) != formatOf(to):
				out = append(out, rel+" imports "+imp+": formats never import each other; move what they share to analysis/internal")
			}
		case strings.Contains(strings.Split(imp, "/")[0], "."):
			if p := thirdPartyProblem(rel, g, imp); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func checkImports(t *testing.T, rel string, imports []string) {
	for _, p := range problems(rel, imports) {
		t.Error(p)
	}
}

func thirdPartyProblem(rel, g, imp string) string {
	for mod, allowed := range thirdParty {
		if imp == mod || strings.HasPrefix(imp, mod+"/") {
			if !slices.Contains(allowed, g) && !slices.Contains(allowed, rel) {
				return rel + " imports " + imp + ": only " + strings.Join(allowed, ", ") + " may"
			}
			return ""
		}
	}
	return rel + " imports " + imp + ", which is not an allowed dependency (see deps_test.go)"
}

// TestProblems checks that the rules catch each kind of violation.
func TestProblems(t *testing.T) {
	tests := []struct {
		rel     string
		imports []string
		want    int
	}{
		{"analysis", []string{"fmt", module + "/internal/version"}, 0},
		{"analysis", []string{module + "/analysis/internal/text"}, 1},
		{"analysis", []string{"github.com/google/pprof/profile"}, 1},
		{"analysis", []string{module + "/compaction"}, 1},
		{"analysis", []string{module + "/analysis/folded"}, 1},
		{"analysis/pprof", []string{"github.com/google/pprof/profile", module + "/analysis", module + "/analysis/internal/text"}, 0},
		{"analysis/folded", []string{"github.com/google/pprof/profile"}, 1},
		{"analysis/folded", []string{module + "/analysis/pprof"}, 1},
		{"analysis/folded/x", []string{module + "/analysis/folded"}, 0},
		{"analysis/gotrace", []string{"golang.org/x/exp/trace"}, 0},
		{"analysis/internal/text", []string{module + "/analysis/pprof"}, 1},
		{"analysis/formats", []string{module + "/analysis/pprof", module + "/analysis/v8"}, 0},
		{"analysis/gen", []string{module + "/analysis/pprof"}, 0},
		{"compaction", []string{"github.com/google/pprof/profile"}, 1},
		{"compaction", []string{module + "/analysis/formats"}, 1},
		{"plotting", []string{module + "/analysis/pprof"}, 1},
		{"kernel/jupyter", []string{module + "/analysis", "github.com/go-zeromq/zmq4", "log/slog"}, 1},
		{"kernel", []string{"github.com/go-zeromq/zmq4", "gonum.org/v1/plot/vg"}, 2},
		{"kernel", []string{module + "/analysis/formats", module + "/analysis/pprof"}, 0},
		{"plotting", []string{"gonum.org/v1/plot/vg", "gonum.org/v1/gonum/mat", "log"}, 1},
		{"phase", []string{module + "/plotting", "example.com/x"}, 2},
		{"cmd/proflens", []string{module + "/kernel", module + "/kernel/jupyter", "log/slog"}, 0},
		{"store", []string{module + "/analysis", module + "/analysis/pprof"}, 0},
		{"store", []string{module + "/kernel"}, 1},
		{"store/storetest", []string{module + "/store", "github.com/google/pprof/profile"}, 1},
		{"kernel", []string{module + "/store"}, 0},
		{"tests/stores/fleet", []string{module + "/store/storetest", module + "/analysis/pprof"}, 0},
		{"tests/stores/fleet", []string{module + "/kernel"}, 1},
		{"tools/x", nil, 1},
		{"agent", []string{"net/http/pprof", "runtime/metrics"}, 0},
		{"agent", []string{module + "/internal/version"}, 1},
		{"agent", []string{"github.com/google/pprof/profile"}, 1},
		{"live", []string{module + "/agent", module + "/analysis/pprof", module + "/analysis"}, 0},
		{"live/demo", []string{module + "/agent"}, 0},
		{"live", []string{module + "/phase"}, 1},
		{"live", []string{module + "/kernel"}, 1},
		{"kernel", []string{module + "/live", module + "/live/demo"}, 0},
	}
	for _, tt := range tests {
		if got := problems(tt.rel, tt.imports); len(got) != tt.want {
			t.Errorf("problems(%s, %v) = %q, want %d", tt.rel, tt.imports, got, tt.want)
		}
	}
}

// TestGroup pins the directory → group mapping.
func TestGroup(t *testing.T) {
	for rel, want := range map[string]string{
		"analysis": "analysis", "analysis/pprof": "format", "analysis/pprof/x": "format", "analysis/formats": "formats",
		"analysis/gen": "gen", "analysis/internal/text": "analysis/internal", "kernel": "kernel", "kernel/jupyter": "jupyter",
		"kernel/jupyter/wire": "jupyter", "kernel/other": "kernel", "cmd/proflens": "cmd",
		"internal/version": "internal", "tools": "", "store": "store", "store/storetest": "store", "tests/stores/fleet": "tests",
		"agent": "agent", "live/demo": "live",
	} {
		if got := group(rel); got != want {
			t.Errorf("group(%q) = %q, want %q", rel, got, want)
		}
	}
}
